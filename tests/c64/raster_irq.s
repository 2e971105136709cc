; raster_irq.s - a raster IRQ fires at its line, in its first cycles.
; Run: mcphost --machine c64 --autostart raster_irq.prg --debugcart --warp
; Exit code 0 = pass, N = check N failed (written to $D7FF). PAL timing
; (63 cycles per line): on NTSC lines are 65 cycles and check 3 fails.
;
; The KERNAL is banked out ($01 = $35) so the IRQ goes straight through
; $FFFE (no KERNAL entry code whose length differs between ROM sets). The
; main loop is a NOP sled (plus loop control), so the handler's first
; instruction starts in cycle E = 10..13 of the line (IRQ in cycle 1, the
; instruction in flight, 7 cycles of IRQ sequence). The handler reads
; $D012 at E+3 (line L), at E+50 (cycles 60-63: still L) and at E+54
; (cycles 1-4 of L+1), so an IRQ a cycle earlier or later than the window
; allows fails check 2 or 3. Checks:
;   1  first read is not line $80          4  $D011 bit 7 not set in line $105
;   2  read at E+50 is not $80             5  $D012 not $05 in line $105
;   3  read at E+54 is not $81             6  $D019 bit 0 not set in the handler
;   7  no IRQ within 3 frames
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
        LDA #<irq
        STA $FFFE
        LDA #>irq
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

; The handler, page-aligned so its branch never crosses a page. The main
; loop is NOPs except for 13 cycles of loop control, so the first fetch is
; in cycle E = 10-13 of the line.
        *= $0A00
irq:    LDX $D012           ; read in cycle E+3: line L
        LDA $D011           ; E+4
        STA d011
        LDA $D019           ; E+12
        STA d019
        LDY #5              ; E+20
dly:    DEY                 ; E+22: 4 * 5 + 4 = 24 cycles
        BNE dly
        NOP                 ; E+46
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
