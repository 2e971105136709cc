; badline.s - a bad line stalls the CPU for 43 cycles.
; Exit code 0 = pass, N = check N failed.
;
; CIA1 timer A (one-shot off, continuous, latch $FFFF) is force-loaded and
; started right before a window of 60 NOPs and stopped right after it; the
; window starts early in line N (polled) and covers all of line N+1's
; cycles 12-54. With YSCROLL = 3 line $53 is a bad line and $55 is not, so
; window(N = $52) - window(N = $54) is the stall (the CPU's reads wait while
; BA is low: 43 cycles with only reads in flight; a window of NOPs has no
; write in flight). Sprites are off.
;   1  the difference is below 43       2  the difference is above 43
;   3  the normal window is not 120 cycles + the fixed overhead (sanity)
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
        LDA #$1B            ; DEN, 25 rows, YSCROLL 3
        STA $D011
        LDA #0
        STA $D015           ; no sprites
        LDA #$FF
        STA $DC04
        STA $DC05
        LDA #$52
        JSR measure
        STX bad_lo
        STY bad_hi
        LDA #$54
        JSR measure
        STX norm_lo
        STY norm_hi
        ; elapsed = $FFFF - value, so bad - norm = norm_value - bad_value
        SEC
        LDA norm_lo
        SBC bad_lo
        STA diff
        LDA norm_hi
        SBC bad_hi
        BNE fail2           ; >= 256
        LDA diff
        CMP #43
        BCC fail1
        CMP #44
        BCS fail2
        ; sanity: $FFFF - norm = 120 + overhead (overhead is a few cycles)
        LDA norm_hi
        CMP #$FF
        BNE fail3
        LDA norm_lo
        CMP #$FF - 135
        BCC fail3
        CMP #$FF - 120
        BCS fail3
        LDA #0
        STA $D7FF
fail1:  LDA #1
        STA $D7FF
fail2:  LDA #2
        STA $D7FF
fail3:  LDA #3
        STA $D7FF

; Waits for line A (at a line start), times 60 NOPs; returns the stopped
; timer in X (low) and Y (high).
measure:
        STA line
        LDA #$7F            ; wait until we are not on that line
w0:     CMP $D012
        BEQ w0
        LDA line
w1:     CMP $D012
        BNE w1
        LDA #$11            ; force load + start (continuous)
        STA $DC0E
        .byte $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA
        .byte $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA
        .byte $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA
        .byte $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA
        .byte $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA
        .byte $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA, $EA
        LDA #$00            ; stop
        STA $DC0E
        LDX $DC04
        LDY $DC05
        RTS

line:   .byte 0
bad_lo: .byte 0
bad_hi: .byte 0
norm_lo: .byte 0
norm_hi: .byte 0
diff:   .byte 0
