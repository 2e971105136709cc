; timer_start.s - when a TED timer starts counting after its high byte is
; written, and when its interrupt flag comes.
; Run: mcphost --machine plus4 --rom-dir ROMS --autostart timer_start.prg
;      --debugcart --warp (also with --ntsc)
; Exit code (written to $FDCF) 0 = pass, N = check N failed.
;
; A timer written with S steps every single-clock period (two double-clock
; cycles), the first a tick after the write, and raises its flag ($FF09
; bit 3 for timer 1) 2S ticks after the write, whatever the single clock's
; phase (VICE's xplus4; FPGATED sets the flag the step after the counter
; reaches 0). With the screen blanked and away from the DRAM refresh (ticks
; 92-101 of a line) every CPU cycle is one tick, so with S = 5 written by
; STA $FF01 in cycle T, a read of $FF09 in cycle T + 9 sees the flag clear
; and one in cycle T + 10 sees it set; $FF00 read in cycle T + 4 reads
; S - 2. Every check runs after 7 different delays (0 and 2-7 cycles)
; before the line sync, so T falls on both phases of the single clock.
;   1  the flag is set at T + 9
;   2  the flag is clear at T + 10
;   3  timer 1 at T + 4 is not 3
; (Generated as one block per delay; the blocks differ only in the delay.)
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
        LDA $FF06           ; blank the screen: no DMA, no fetch window
        AND #$EF
        STA $FF06
        JSR sync
        JSR sync

; delay 0: the flag at T + 9 must be clear
        JSR sync
        JSR arm
        STA $FF01           ; T
        BIT $02             ; T+1..T+3
        NOP                 ; T+4..T+5
        LDA $FF09           ; read at T+9
        AND #$08
        BEQ a1
        LDA #1
        JMP fail
a1:
; delay 0: the flag at T + 10 must be set
        JSR sync
        JSR arm
        STA $FF01           ; T
        NOP                 ; T+1..T+2
        NOP                 ; T+3..T+4
        NOP                 ; T+5..T+6
        LDA $FF09           ; read at T+10
        AND #$08
        BNE b1
        LDA #2
        JMP fail
b1:
; delay 0: timer 1 at T + 4
        JSR sync
        JSR arm
        STA $FF01           ; T
        LDA $FF00           ; read at T+4: 5 - 2
        CMP #3
        BEQ c1
        LDA #3
        JMP fail
c1:

; delay 2: the flag at T + 9 must be clear
        NOP
        JSR sync
        JSR arm
        STA $FF01           ; T
        BIT $02             ; T+1..T+3
        NOP                 ; T+4..T+5
        LDA $FF09           ; read at T+9
        AND #$08
        BEQ a2
        LDA #1
        JMP fail
a2:
; delay 2: the flag at T + 10 must be set
        NOP
        JSR sync
        JSR arm
        STA $FF01           ; T
        NOP                 ; T+1..T+2
        NOP                 ; T+3..T+4
        NOP                 ; T+5..T+6
        LDA $FF09           ; read at T+10
        AND #$08
        BNE b2
        LDA #2
        JMP fail
b2:
; delay 2: timer 1 at T + 4
        NOP
        JSR sync
        JSR arm
        STA $FF01           ; T
        LDA $FF00           ; read at T+4: 5 - 2
        CMP #3
        BEQ c2
        LDA #3
        JMP fail
c2:

; delay 3: the flag at T + 9 must be clear
        BIT $02
        JSR sync
        JSR arm
        STA $FF01           ; T
        BIT $02             ; T+1..T+3
        NOP                 ; T+4..T+5
        LDA $FF09           ; read at T+9
        AND #$08
        BEQ a3
        LDA #1
        JMP fail
a3:
; delay 3: the flag at T + 10 must be set
        BIT $02
        JSR sync
        JSR arm
        STA $FF01           ; T
        NOP                 ; T+1..T+2
        NOP                 ; T+3..T+4
        NOP                 ; T+5..T+6
        LDA $FF09           ; read at T+10
        AND #$08
        BNE b3
        LDA #2
        JMP fail
b3:
; delay 3: timer 1 at T + 4
        BIT $02
        JSR sync
        JSR arm
        STA $FF01           ; T
        LDA $FF00           ; read at T+4: 5 - 2
        CMP #3
        BEQ c3
        LDA #3
        JMP fail
c3:

; delay 4: the flag at T + 9 must be clear
        NOP
        NOP
        JSR sync
        JSR arm
        STA $FF01           ; T
        BIT $02             ; T+1..T+3
        NOP                 ; T+4..T+5
        LDA $FF09           ; read at T+9
        AND #$08
        BEQ a4
        LDA #1
        JMP fail
a4:
; delay 4: the flag at T + 10 must be set
        NOP
        NOP
        JSR sync
        JSR arm
        STA $FF01           ; T
        NOP                 ; T+1..T+2
        NOP                 ; T+3..T+4
        NOP                 ; T+5..T+6
        LDA $FF09           ; read at T+10
        AND #$08
        BNE b4
        LDA #2
        JMP fail
b4:
; delay 4: timer 1 at T + 4
        NOP
        NOP
        JSR sync
        JSR arm
        STA $FF01           ; T
        LDA $FF00           ; read at T+4: 5 - 2
        CMP #3
        BEQ c4
        LDA #3
        JMP fail
c4:

; delay 5: the flag at T + 9 must be clear
        NOP
        BIT $02
        JSR sync
        JSR arm
        STA $FF01           ; T
        BIT $02             ; T+1..T+3
        NOP                 ; T+4..T+5
        LDA $FF09           ; read at T+9
        AND #$08
        BEQ a5
        LDA #1
        JMP fail
a5:
; delay 5: the flag at T + 10 must be set
        NOP
        BIT $02
        JSR sync
        JSR arm
        STA $FF01           ; T
        NOP                 ; T+1..T+2
        NOP                 ; T+3..T+4
        NOP                 ; T+5..T+6
        LDA $FF09           ; read at T+10
        AND #$08
        BNE b5
        LDA #2
        JMP fail
b5:
; delay 5: timer 1 at T + 4
        NOP
        BIT $02
        JSR sync
        JSR arm
        STA $FF01           ; T
        LDA $FF00           ; read at T+4: 5 - 2
        CMP #3
        BEQ c5
        LDA #3
        JMP fail
c5:

; delay 6: the flag at T + 9 must be clear
        NOP
        NOP
        NOP
        JSR sync
        JSR arm
        STA $FF01           ; T
        BIT $02             ; T+1..T+3
        NOP                 ; T+4..T+5
        LDA $FF09           ; read at T+9
        AND #$08
        BEQ a6
        LDA #1
        JMP fail
a6:
; delay 6: the flag at T + 10 must be set
        NOP
        NOP
        NOP
        JSR sync
        JSR arm
        STA $FF01           ; T
        NOP                 ; T+1..T+2
        NOP                 ; T+3..T+4
        NOP                 ; T+5..T+6
        LDA $FF09           ; read at T+10
        AND #$08
        BNE b6
        LDA #2
        JMP fail
b6:
; delay 6: timer 1 at T + 4
        NOP
        NOP
        NOP
        JSR sync
        JSR arm
        STA $FF01           ; T
        LDA $FF00           ; read at T+4: 5 - 2
        CMP #3
        BEQ c6
        LDA #3
        JMP fail
c6:

; delay 7: the flag at T + 9 must be clear
        NOP
        NOP
        BIT $02
        JSR sync
        JSR arm
        STA $FF01           ; T
        BIT $02             ; T+1..T+3
        NOP                 ; T+4..T+5
        LDA $FF09           ; read at T+9
        AND #$08
        BEQ a7
        LDA #1
        JMP fail
a7:
; delay 7: the flag at T + 10 must be set
        NOP
        NOP
        BIT $02
        JSR sync
        JSR arm
        STA $FF01           ; T
        NOP                 ; T+1..T+2
        NOP                 ; T+3..T+4
        NOP                 ; T+5..T+6
        LDA $FF09           ; read at T+10
        AND #$08
        BNE b7
        LDA #2
        JMP fail
b7:
; delay 7: timer 1 at T + 4
        NOP
        NOP
        BIT $02
        JSR sync
        JSR arm
        STA $FF01           ; T
        LDA $FF00           ; read at T+4: 5 - 2
        CMP #3
        BEQ c7
        LDA #3
        JMP fail
c7:

        LDA #0
        STA $FDCF
        JMP *

fail:   STA $FDCF
        JMP *

; Timer 1 stopped with low byte 5, its flag cleared, A = 0 for the start.
arm:    LDA #5
        STA $FF00
        LDA #$08
        STA $FF09
        LDA #0
        RTS

; Waits for the vertical counter to change (the start of a line), well
; before the refresh at tick 92.
sync:   LDA $FF1D
s1:     CMP $FF1D
        BEQ s1
        RTS
