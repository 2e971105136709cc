; drive_load.s - autostarted from a .d64 (which also goes into drive 8):
; loads the disk's second file with the KERNAL (SETLFS, SETNAM, LOAD) and
; checks it. Exit code 0 = pass;
;   1 LOAD "DATA",8,1 set carry       2 X/Y is not the end address + 1
;   3 the bytes at $C000 are wrong    4 LOAD "NOPE",8,1 cleared carry
;   5 ... and A is not 4 (FILE NOT FOUND)
;   6 LOAD "D*",8 (SA 0) to $C100: carry, X/Y or bytes wrong
        *= $0801
        .word basic_end
        .word 10
        .byte $9E
        .text "2064"
        .byte 0
basic_end:
        .word 0

        *= $0810
SETLFS = $FFBA
SETNAM = $FFBD
LOAD   = $FFD5
start:  LDA #1
        LDX #8
        LDY #1
        JSR SETLFS
        LDA #4
        LDX #<name
        LDY #>name
        JSR SETNAM
        LDA #0
        JSR LOAD
        BCC ok1
        LDA #1
        STA $D7FF
ok1:    CPX #$04
        BNE bad2
        CPY #$C0
        BEQ ok2
bad2:   LDA #2
        STA $D7FF
ok2:    LDX #3
chk:    LDA $C000,X
        CMP expect,X
        BNE bad3
        DEX
        BPL chk
        ; a missing file
        LDA #4
        LDX #<missing
        LDY #>missing
        JSR SETNAM
        LDA #0
        JSR LOAD
        BCS ok4
        LDA #4
        STA $D7FF
ok4:    CMP #4
        BEQ ok5
        LDA #5
        STA $D7FF
bad3:   LDA #3
        STA $D7FF
        ; a pattern, SA 0: loads at X/Y
ok5:    LDA #1
        LDX #8
        LDY #0
        JSR SETLFS
        LDA #2
        LDX #<pattern
        LDY #>pattern
        JSR SETNAM
        LDA #0
        LDX #$00
        LDY #$C1
        JSR LOAD
        BCS bad6
        CPX #$04
        BNE bad6
        CPY #$C1
        BNE bad6
        LDA $C103
        CMP #$44
        BNE bad6
        LDA #0
        STA $D7FF
bad6:   LDA #6
        STA $D7FF
name:    .text "DATA"
missing: .text "NOPE"
pattern: .text "D*"
expect:  .byte $11, $22, $33, $44
