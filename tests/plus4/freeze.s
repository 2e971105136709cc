; freeze.s - $FF07 bit 5, the TED stop ("freeze").
; Run: mcphost --machine plus4 --rom-dir ROMS --autostart freeze.prg
;      --debugcart --warp (also with --ntsc)
; Exit code (written to $FDCF) 0 = pass, N = check N failed.
;
; Levente Harsfalvi's register list: "TED stop. If set, the TED stops its
; counters and screen-generating, only single clock and refresh cycles
; remain"; FPGATED (a re-implementation of the chip) stops the dot counter
; and the timers with it. While frozen, about 2000 CPU cycles pass between
; two readings:
;   1  the vertical counter ($FF1D) or the dot counter ($FF1E) moved
;   2  timer 1 moved
;   3  $FF13 bit 0 does not read 1 (single clock)
;   4  after the freeze is lifted the beam does not run again
        *= $1001
        .word basic_end
        .word 10
        .byte $9E
        .text "4109"
        .byte 0
basic_end:
        .word 0

        *= $100D
start:  SEI
        LDA #$00            ; timer 1 from $8000, no interrupt
        STA $FF00
        LDA #$80
        STA $FF01
w1:     LDA $FF1C           ; line 100
        AND #1
        BNE w1
        LDA $FF1D
        CMP #100
        BNE w1
        LDA $FF07
        ORA #$20
        STA $FF07           ; freeze
        LDA $FF1D
        STA l1
        LDA $FF1E
        STA h1
        LDA $FF00
        STA t1
        LDA $FF01
        STA t1+1
        LDX #0              ; about 2000 cycles
d1:     NOP
        NOP
        DEX
        BNE d1
        LDA $FF13
        STA clk
        LDA $FF1D
        STA l2
        LDA $FF1E
        STA h2
        LDA $FF00
        STA t2
        LDA $FF01
        STA t2+1
        LDA $FF07
        AND #$DF
        STA $FF07           ; thaw
        LDX #0
d2:     NOP
        NOP
        DEX
        BNE d2
        LDA $FF1D
        STA l3

        LDA #1
        STA check
        LDA l1
        CMP l2
        BNE fail
        LDA h1
        CMP h2
        BNE fail
        INC check           ; 2
        LDA t1
        CMP t2
        BNE fail
        LDA t1+1
        CMP t2+1
        BNE fail
        INC check           ; 3
        LDA clk
        AND #1
        BEQ fail
        INC check           ; 4
        LDA l3
        CMP l2
        BEQ fail
        LDA #0
        STA $FDCF
        JMP *
fail:   LDA check
        STA $FDCF
        JMP *

check:  .byte 0
clk:    .byte 0
l1:     .byte 0
l2:     .byte 0
l3:     .byte 0
h1:     .byte 0
h2:     .byte 0
t1:     .word 0
t2:     .word 0
