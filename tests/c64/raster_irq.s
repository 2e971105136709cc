; raster_irq.s - a raster IRQ fires at its line, in its first cycle.
; Run: mcphost --machine c64 --autostart raster_irq.prg --debugcart --warp
; Exit code 0 = pass, N = check N failed (written to $D7FF). Works on the
; 6569 (63 cycles per line), 6567R56A (64) and 6567R8 (65): the program
; finds the last raster line first and picks the handler entry that pads
; the timing by 0, 1 or 2 cycles.
;
; The KERNAL is banked out ($01 = $35) so the IRQ goes straight through
; $FFFE (no KERNAL entry code whose length differs between ROM sets). The
; main loop is a NOP sled (plus loop control), so the handler's first
; instruction starts in cycle E = 10..13 of the line: the IRQ comes in
; cycle 1, the instruction in flight ends (1 cycle for a NOP, up to 3 for
; LDA abs or a taken branch followed by JMP), then 7 cycles of IRQ
; sequence. The handler reads $D012 at E+8 (line L), at E+50 (cycles
; 60-63: still L) and at E+54 (cycles 64-67 = 1-4 of L+1) on PAL (2 cycles
; later on NTSC), so an IRQ that comes a cycle earlier or later than that
; window allows fails check 2 or 3. Checks:
;   1  first read is not line $80          4  $D011 bit 7 not set in line $105
;   2  read at E+50 is not $80             5  $D012 not $05 in line $105
;   3  read at E+54 is not $81             6  $D019 bit 0 not set in the handler
;   7  no IRQ within about 3 frames        8  unknown number of raster lines
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
        LDA $DC0D
        LDA $DD0D
        LDA #$35
        STA $01
det:    LDA $D012           ; find the last line's low byte: $37 (312 lines),
det1:   CMP $D012           ; $06 (263) or $05 (262)
        BEQ det1
        BMI det
        LDX #<irq63
        CMP #$37
        BEQ setvec
        LDX #<irq65
        CMP #$06
        BEQ setvec
        LDX #<irq64
        CMP #$05
        BEQ setvec
        LDA #8
        STA $D7FF
setvec: STX $FFFE
        LDA #>irq63
        STA $FFFF
        LDA #<nmi
        STA $FFFA
        LDA #>nmi
        STA $FFFB
        LDA #$1B
        STA $D011
        LDA #$80
        STA $D012
        LDA #0
        STA phase
        STA frames
        LDA #$01
        STA $D01A
        LDA #$FF
        STA $D019
        CLI
wait:   LDA #250            ; timeout: about 3 frames of polling $D012
        STA timeout
        LDX #0
w1:                     ; a sled of 200 NOPs
        .byte $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA
        .byte $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA
        .byte $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA
        .byte $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA
        .byte $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA
        .byte $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA
        .byte $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA
        .byte $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA
        .byte $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA
        .byte $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA
        LDA phase
        CMP #3
        BEQ pass
        DEX
        BNE again
        DEC timeout
        BNE again
        LDA #7
        STA $D7FF
again:  JMP w1
pass:   LDA #0
        STA $D7FF
        JMP pass

; The handler, page-aligned so its branches never cross a page. Entries
; for 63, 64 and 65-cycle lines take 5, 6 and 7 cycles to reach `irq`.
        *= $0A00
irq63:  NOP
        JMP irq
irq64:  BIT $02
        JMP irq
irq65:  NOP
        NOP
        JMP irq
irq:    LDX $D012           ; E+5, read in cycle E+8: line L
        LDA $D011           ; E+9
        STA d011
        LDA $D019           ; E+17
        STA d019
        LDY #3              ; E+25
dly:    DEY                 ; E+27: 2 * 5 + 4 = 14 cycles
        BNE dly
        NOP                 ; E+41
        NOP
        NOP
        LDA $D012           ; E+47, read in cycle E+50 = 60..63: still line L
        LDY $D012           ; E+51, read in cycle E+54 = 64..67 = 1..4 of L+1
        STA late
        LDA phase
        BNE second
        ; phase 0: line $80
        CPX #$80
        BNE fail1
        LDA late
        CMP #$80
        BNE fail2
        CPY #$81
        BNE fail3
        LDA d019
        AND #1
        BEQ fail6
        LDA #$9B            ; next: line $105 (RST8 = 1)
        STA $D011
        LDA #$05
        STA $D012
        INC phase
        LDA #$FF
        STA $D019
        RTI
second: CMP #2
        BEQ third
        LDA d011
        BPL fail4
        CPX #$05
        BNE fail5
        LDA d019
        AND #1
        BEQ fail6
        INC phase
        LDA #$FF
        STA $D019
        RTI
third:  INC phase           ; the $105 IRQ came a second time: done
        LDA #$FF
        STA $D019
        RTI
fail1:  LDA #1
        STA $D7FF
fail2:  LDA #2
        STA $D7FF
fail3:  LDA #3
        STA $D7FF
fail4:  LDA #4
        STA $D7FF
fail5:  LDA #5
        STA $D7FF
fail6:  LDA #6
        STA $D7FF
nmi:    RTI

phase:  .byte 0
frames: .byte 0
timeout: .byte 0
late:   .byte 0
d011:   .byte 0
d019:   .byte 0
