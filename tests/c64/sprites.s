; sprites.s - sprite-sprite collisions: $D01E and the IRQ.
; Exit code 0 = pass, N = check N failed.
;
; Sprites 0 and 1 (solid 24x21 blocks, pointers $0340/64 = 13) overlap at
; X = 100, Y = 100; sprite 2 stands alone at X = 200. Checks:
;   1  no IRQ within about 3 frames
;   2  $D019 bit 2 (MMC) not set in the handler
;   3  $D01E is not %011 in the handler
;   4  with sprite 1 moved away, a whole frame still reports a collision
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
        LDX #62             ; sprite data at $0340: solid
        LDA #$FF
fill:   STA $0340,X
        DEX
        BPL fill
        LDA #13
        STA $07F8
        STA $07F9
        STA $07FA
        LDA #100
        STA $D000           ; sprite 0 X
        STA $D001           ; sprite 0 Y
        STA $D003           ; sprite 1 Y
        STA $D005           ; sprite 2 Y
        LDA #110
        STA $D002           ; sprite 1 X: overlaps sprite 0
        LDA #200
        STA $D004           ; sprite 2 X: alone
        LDA #0
        STA $D010
        STA got
        LDA #%00000111
        STA $D015
        LDA $D01E           ; clear
        LDA #$FF
        STA $D019
        LDA #$04            ; sprite-sprite IRQ only
        STA $D01A
        CLI
        LDX #0
        LDY #0
wait:   LDA got
        BNE check
        DEX
        BNE wait
        DEY
        BNE wait
        LDA #1
        STA $D7FF
check:  LDA irr
        AND #$04
        BNE c3
        LDA #2
        STA $D7FF
c3:     LDA coll
        CMP #%011
        BEQ c4
        LDA #3
        STA $D7FF
c4:     LDA #250            ; move sprite 1 off sprite 0
        STA $D002
        JSR frame
        LDA $D01E           ; clears what the last frame left
        JSR frame
        LDA $D01E           ; a whole frame without overlaps
        BEQ c5
        LDA #4
        STA $D7FF
c5:     LDA #0
        STA $D7FF
nmi:    RTI

; Waits for the next start of line 251.
frame:  LDA #251
f1:     CMP $D012
        BEQ f1
f2:     CMP $D012
        BNE f2
        RTS

irq:    PHA
        LDA $D019
        STA irr
        LDA $D01E
        STA coll
        LDA #$FF
        STA $D019
        LDA #0
        STA $D01A           ; one is enough
        INC got
        PLA
        RTI

got:    .byte 0
irr:    .byte 0
coll:   .byte 0
