; ready.s - the machine booted to the READY prompt: "READY." (screen codes)
; is in screen memory at $0400-$07E7 when the autostart runs this program.
; Exit code 0 = found, 1 = not found.
        *= $0801
        .word basic_end
        .word 10
        .byte $9E
        .text "2064"
        .byte 0
basic_end:
        .word 0

        *= $0810
start:  LDA #$00
        STA $FB
        LDA #$04
        STA $FC
scan:   LDY #0
cmp:    LDA ($FB),Y
        CMP ready,Y
        BNE next
        INY
        CPY #6
        BNE cmp
        LDA #0
        STA $D7FF
next:   INC $FB
        BNE chk
        INC $FC
chk:    LDA $FC
        CMP #$08
        BNE scan
        LDA #1
        STA $D7FF
ready:  .byte $12, $05, $01, $04, $19, $2E  ; R E A D Y .
