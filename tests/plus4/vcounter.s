; vcounter.s - the TED's vertical counter ($FF1C/$FF1D) and $FF07 bit 6.
; Run: mcphost --machine plus4 --rom-dir ROMS --autostart vcounter.prg
;      --debugcart --warp (also with --ntsc)
; Exit code (written to $FDCF) 0 = pass, N = check N failed.
;
; Frames are timed with timer 2 (it counts single-clock cycles, 57 a line
; whatever the CPU's clock) from one start of line 0 to the next, the
; screen blanked and interrupts off. A write to the vertical counter makes
; the counter run on from the written value: back to line 50 at line 100
; adds 50 lines, forward to 250 takes 150 away, and a value past the last
; line (400) runs on to 511 and wraps to 0 (the counter has 9 bits; it
; wraps early only from the standard's last line). $FF07 bit 6 switches the
; line count: 312 (PAL) / 262 (NTSC). Each measurement may be off by the
; polling loops (a few cycles); 40 are allowed.
;   1  a frame is not 312 / 262 lines
;   2  back to line 50 at line 100: not 362 / 312 lines
;   3  to line 400 at line 100: not 212 lines (100 + 400..511)
;   4  forward to line 250 at line 100: not 162 / 112 lines
;   5  $FF07 bit 6 flipped: not 262 / 312 lines
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
        LDA $FF06
        AND #$EF            ; blank the screen (no DMA lines)
        STA $FF06
        LDX #0              ; expectations for PAL ...
        LDA $FF07
        AND #$40
        BEQ std
        LDX #10             ; ... or NTSC
std:    STX table
        LDA #$FF            ; timer 2 runs free from $FFFF
        STA $FF02
        STA $FF03

        LDA #1              ; 1: an untouched frame
        STA check
        JSR sync0
        JSR readt0
        JSR sync0
        JSR verify

        LDA #2              ; 2: back to line 50 at line 100
        STA check
        JSR sync0
        JSR readt0
        JSR line100
        LDA #50
        STA $FF1D
        JSR sync0
        JSR verify

        LDA #3              ; 3: to line 400 at line 100
        STA check
        JSR sync0
        JSR readt0
        JSR line100
        LDA $FF1C
        ORA #$01
        STA $FF1C
        LDA #$90
        STA $FF1D
        JSR sync0
        JSR verify

        LDA #4              ; 4: forward to line 250 at line 100
        STA check
        JSR sync0
        JSR readt0
        JSR line100
        LDA #250
        STA $FF1D
        JSR sync0
        JSR verify

        LDA #5              ; 5: the other standard's line count
        STA check
        LDA $FF07
        EOR #$40
        STA $FF07
        JSR sync0
        JSR sync0
        JSR readt0
        JSR sync0
        LDA $FF07
        EOR #$40
        STA $FF07
        JSR verify

        LDA $FF06
        ORA #$10
        STA $FF06
        LDA #0
        STA $FDCF
        JMP *

; Waits while the line is 0, then until it is 0 again.
sync0:  LDA $FF1D
        BNE s0b
        LDA $FF1C
        AND #1
        BEQ sync0
s0b:    LDA $FF1D
        BNE s0b
        LDA $FF1C
        AND #1
        BNE s0b
        RTS

; Waits for line 100.
line100:
        LDA $FF1C
        AND #1
        BNE line100
        LDA $FF1D
        CMP #100
        BNE line100
        RTS

; Timer 2 into th/tl (the high byte read twice: no carry between the reads).
readt:  LDA $FF03
        STA th
        LDA $FF02
        STA tl
        LDA $FF03
        CMP th
        BNE readt
        RTS

readt0: JSR readt
        LDA tl
        STA t0l
        LDA th
        STA t0h
        RTS

; Elapsed = t0 - now; fails with the check number unless it is within 40
; of the expectation (table + (check - 1) * 2).
verify: JSR readt
        SEC
        LDA t0l
        SBC tl
        STA dl
        LDA t0h
        SBC th
        STA dh
        LDA check
        SEC
        SBC #1
        ASL A
        CLC
        ADC table
        TAX
        SEC
        LDA dl
        SBC expect,X
        STA dl
        LDA dh
        SBC expect+1,X
        STA dh
        CLC
        LDA dl
        ADC #40
        STA dl
        LDA dh
        ADC #0
        BNE fail
        LDA dl
        CMP #81
        BCS fail
        RTS
fail:   LDA $FF06
        ORA #$10
        STA $FF06
        LDA check
        STA $FDCF
        JMP *

; Single-clock cycles (57 a line) of each check's frame: PAL, then NTSC.
expect: .word 312*57, 362*57, 212*57, 162*57, 262*57
        .word 262*57, 312*57, 212*57, 112*57, 312*57

table:  .byte 0
check:  .byte 0
th:     .byte 0
tl:     .byte 0
t0h:    .byte 0
t0l:    .byte 0
dh:     .byte 0
dl:     .byte 0
