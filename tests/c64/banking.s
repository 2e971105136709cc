; banking.s - the PLA with no cartridge: what $A000, $D000 and $E000 show
; for each of the 8 values of $01 bits 0-2, and that writes under ROMs
; reach the RAM below. Exit code 0 = pass, 1 + 3 * config + block (block 0
; = $A000, 1 = $D000, 2 = $E000) = that read was wrong; results at $0A00.
;
; The program learns the ROM bytes first (BASIC and KERNAL with $01 = $37,
; the character ROM with $33), then writes different RAM patterns: $A000
; and $E000 with the ROMs banked in (the writes go to the RAM below),
; $D000 with the character ROM banked in (the same), and a different value
; into VIC register $D000 (sprite 0 X) with I/O banked in.
;   $01 & 7:  0 1 2 3 4 5 6 7
;   $A000     R R R B R R R B      (R = RAM, B = BASIC, C = character ROM,
;   $D000     R C C C R I I I       I = I/O, K = KERNAL)
;   $E000     R R K K R R K K
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
        LDA #$37
        STA $01
        LDA $A000
        STA rom_a
        EOR #$FF
        STA ram_a
        LDA $E000
        STA rom_e
        EOR #$FF
        STA ram_e
        LDA #$33
        STA $01
        LDA $D000
        STA rom_d
        EOR #$FF
        STA ram_d
        EOR #$55
        STA io_d
        ; writes: under BASIC/KERNAL with $37, under the character ROM with $33
        LDA ram_d
        STA $D000           ; $33: RAM below the character ROM
        LDA #$37
        STA $01
        LDA ram_a
        STA $A000
        LDA ram_e
        STA $E000
        LDA io_d
        STA $D000           ; I/O: VIC sprite 0 X
        ; read each configuration
        LDX #0
        LDY #0
each:   TYA
        ORA #$30
        STA $01
        LDA $A000
        STA $0A00,X
        LDA $D000
        STA $0A01,X
        LDA $E000
        STA $0A02,X
        LDA #$37
        STA $01
        INX
        INX
        INX
        INY
        CPY #8
        BNE each
        ; expected values
        LDX #0
exp:    LDY table,X
        LDA values,Y
        STA $0A20,X
        INX
        CPX #24
        BNE exp
        LDX #0
cmp:    LDA $0A00,X
        CMP $0A20,X
        BNE fail
        INX
        CPX #24
        BNE cmp
        LDA #0
        STA $D7FF
fail:   INX
        STX $D7FF
        JMP fail

; indexes into values: 0 ram_a 1 rom_a 2 ram_d 3 rom_d 4 io_d 5 ram_e 6 rom_e
table:  .byte 0, 2, 5       ; $30
        .byte 0, 3, 5       ; $31
        .byte 0, 3, 6       ; $32
        .byte 1, 3, 6       ; $33
        .byte 0, 2, 5       ; $34
        .byte 0, 4, 5       ; $35
        .byte 0, 4, 6       ; $36
        .byte 1, 4, 6       ; $37
values:
ram_a:  .byte 0
rom_a:  .byte 0
ram_d:  .byte 0
rom_d:  .byte 0
io_d:   .byte 0
ram_e:  .byte 0
rom_e:  .byte 0
