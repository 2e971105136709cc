; keyscan.s - scans the keyboard matrix both ways and the joysticks,
; forever, for the in-process test c64.input (loaded at $C000 and started
; by setting the PC; no BASIC stub). Results:
;   $C100-$C107  PB read with PA = one column low (DDRA $FF, DDRB 0)
;   $C108-$C10F  PA read with PB = one row low (DDRA 0, DDRB $FF)
;   $C110        $DC00 with DDRA $FF, PA $FF (joystick 2)
;   $C111        $DC01 with DDRB 0 (joystick 1)
;   $C120        passes completed
        *= $C000
start:  SEI
        LDA #0
        STA $C120
pass:   LDA #$FF
        STA $DC02
        LDA #0
        STA $DC03
        LDX #0
col:    LDA mask,X
        STA $DC00
        LDA $DC01
        STA $C100,X
        INX
        CPX #8
        BNE col
        LDA #0
        STA $DC02
        LDA #$FF
        STA $DC03
        LDX #0
row:    LDA mask,X
        STA $DC01
        LDA $DC00
        STA $C108,X
        INX
        CPX #8
        BNE row
        LDA #$FF
        STA $DC02
        STA $DC00
        LDA #0
        STA $DC03
        LDA $DC00
        STA $C110
        LDA $DC01
        STA $C111
        INC $C120
        JMP pass
mask:   .byte $FE, $FD, $FB, $F7, $EF, $DF, $BF, $7F
