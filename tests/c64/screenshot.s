; screenshot.s - for --exit-screenshot: a red border, a blue background,
; a blank screen but for one green 8x8 block at the top left (character 0
; of a character set at $3000: all bits set; character 32 blank), held for
; three complete frames (six passes of $D012 through 0: lines 0 and 256);
; then exit code 0.
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
        LDA #2
        STA $D020
        LDA #6
        STA $D021
        LDX #0
fill:   LDA #$20
        STA $0400,X
        STA $0500,X
        STA $0600,X
        STA $06E8,X
        LDA #14
        STA $D800,X
        STA $D900,X
        STA $DA00,X
        STA $DAE8,X
        INX
        BNE fill
        LDX #7
chars:  LDA #$FF
        STA $3000,X
        LDA #0
        STA $3100,X
        DEX
        BPL chars
        LDA #$1C
        STA $D018
        LDA #0
        STA $0400
        LDA #5
        STA $D800
        LDY #6
frame:  LDA $D012
        BNE frame
wait:   LDA $D012
        BEQ wait
        DEY
        BNE frame
        LDA #0
        STA $D7FF
