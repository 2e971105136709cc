; cia_timer.s - CIA1 timer A start delay, underflow period and timer B
; counting timer A underflows (cascade). Exit code 0 = pass, N = sample N-1
; differs from the table (results are also left at $0A00 for a debugger).
;
; Expected values from the 6526 pipeline (docs/cia6526.md), counting the
; cycle of the write that starts timer A as w; a read in cycle t sees the
; counter after the CIA's tick of cycle t:
;   TA latch 9, started at w: first decrement at w+3; it underflows at
;   w+11, w+21, ... (every latch+1 cycles), reloads there and does not
;   count in the next cycle, so it reads 7 at w+4, 9 at w+12, 1 at w+20,
;   3 at w+28.
;   TB latch 3, counting TA underflows: each is counted two cycles later
;   (w+13, w+23, w+33), so TB reads 3 3 2 1 0 at w+4 .. w+36 (every 8
;   cycles), and the fourth (w+43) underflows and reloads it: 3 at w+44.
;   ICR then has TA and TB flags set (bits 0 and 1; IR clear: masked off).
        *= $0801
        .word basic_end
        .word 10
        .byte $9E
        .text "2064"
        .byte 0
basic_end:
        .word 0

        *= $0810
start:  SEI
        LDA #$7F
        STA $DC0D
        STA $DD0D
        LDA #0
        STA $DC0E           ; timers stopped
        STA $DC0F
        LDA $DC0D
        ; run 1: timer A alone
        LDA #9
        STA $DC04
        LDA #0
        STA $DC05           ; stopped: the high byte write loads the counter
        NOP
        NOP
        LDA #$01            ; start, continuous, PHI2
        STA $DC0E           ; the write: cycle w
        LDA $DC04           ; read at w+4
        STA $0A00           ; w+8
        LDA $DC04           ; read at w+12
        STA $0A01
        LDA $DC04           ; w+20
        STA $0A02
        LDA $DC04           ; w+28
        STA $0A03
        LDA #0
        STA $DC0E
        ; run 2: timer B counts timer A underflows
        LDA #9
        STA $DC04
        LDA #0
        STA $DC05
        LDA #3
        STA $DC06
        LDA #0
        STA $DC07
        LDA #$41            ; TB: start, input = TA underflows
        STA $DC0F
        LDA $DC0D           ; clear the flags
        NOP
        NOP
        LDA #$01
        STA $DC0E           ; w
        LDA $DC06           ; w+4
        STA $0A04
        LDA $DC06           ; w+12
        STA $0A05
        LDA $DC06           ; w+20
        STA $0A06
        LDA $DC06           ; w+28
        STA $0A07
        LDA $DC06           ; w+36
        STA $0A08
        LDA $DC06           ; w+44
        STA $0A09
        LDA $DC0D           ; w+52
        STA $0A0A
        LDA #0
        STA $DC0E
        STA $DC0F
        ; compare
        LDX #0
cmp:    LDA $0A00,X
        CMP expect,X
        BNE fail
        INX
        CPX #11
        BNE cmp
        LDA #0
        STA $D7FF
fail:   INX
        STX $D7FF
        JMP fail

expect: .byte 7, 9, 1, 3
        .byte 3, 3, 2, 1, 0, 3
        .byte $03
