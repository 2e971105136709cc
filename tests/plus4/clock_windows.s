; clock_windows.s - where in a line the TED runs the CPU at single clock.
; Run: mcphost --machine plus4 --rom-dir ROMS --autostart clock_windows.prg
;      --debugcart --warp (also with --ntsc)
; Exit code (written to $FDCF) 0 = pass, N = check N failed.
;
; The TED's event table (Commodore's 264 technical notes, posted by Tibor
; Biczo in 1998; the FPGATED re-implementation; VICE's xplus4): the DRAM
; refresh runs 5 single-clock cycles from horizontal dot 296 to 336
; ($FF1E $94-$A8) on every line; on display lines the single clock starts
; at dot 400 ($FF1E $C8, the external fetch window) and lasts through the
; refresh, so the CPU runs double clock only from dot 336 to 400 ($FF1E
; $A8-$C8). $FF13 bit 0 reads 1 while the clock is single.
;
; The program samples pairs: LDX $FF13 then LDA $FF1E (read 4 CPU cycles,
; 4-8 ticks, $FF1E + 8..16, later), 200 of them spread over many lines.
;   1  screen blanked: a single-clock sample with $FF1E outside $9B-$B8
;   2  screen blanked: no single-clock sample at all (no refresh seen)
;   3  display lines: a double-clock sample with $FF1E outside $AF-$D8
;   4  display lines: no double-clock sample, or no single-clock sample
;      in the display part ($FF1E $D8-$FF or $00-$8F)
;   5  a DMA line (line 3, the attribute fetch with y scroll 3) stops the
;      CPU from dot 400 to dot 288 (43 single cycles from tick 4): reads
;      of $FF1E back to back (LDA/STA pairs) through the end of line 2 and
;      line 3, in 8 phases; the first read after a halt (a step back in
;      the samples) reads $FF1E $90-$94 when the halted cycle was the read
;      itself, later otherwise: the smallest must be $90-$94
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
        LDA $FF06           ; blank the screen: from the next frame on
        AND #$EF
        STA $FF06
        JSR sync0
        JSR sync0
        LDA #20
        JSR waitl
        JSR sample
        LDA #0              ; 1/2: single clock only in the refresh
        STA count
        LDY #0
b1:     LDA xs,Y
        AND #1
        BEQ b2
        INC count
        LDA as,Y
        CMP #$9B
        BCS n1
        JMP fail1
n1:
        CMP #$B9
        BCC n2
        JMP fail1
n2:
b2:     INY
        CPY #200
        BNE b1
        LDA count
        BNE n3
        JMP fail2
n3:

        LDA $FF06           ; display on: from the next frame on
        ORA #$10
        STA $FF06
        JSR sync0
        LDA #20
        JSR waitl
        JSR sample
        LDA #0              ; 3/4: double clock only from $A8 to $C8
        STA count
        STA count2
        LDY #0
d1:     LDA xs,Y
        AND #1
        BNE d3
        INC count
        LDA as,Y
        CMP #$AF
        BCS n4
        JMP fail3
n4:
        CMP #$D9
        BCC n5
        JMP fail3
n5:
        JMP d4
d3:     LDA as,Y            ; single: count those in the display part
        CMP #$D8
        BCS d5
        CMP #$90
        BCS d4
d5:     INC count2
d4:     INY
        CPY #200
        BNE d1
        LDA count
        BNE n6
        JMP fail4
n6:
        LDA count2
        BNE n7
        JMP fail4
n7:

        LDA $FF06           ; 5: the DMA halt's end
        AND #$F8
        ORA #$03
        STA $FF06
        LDA #$FF
        STA best
        LDY #8
e1:     STY frames
        JSR sync0
        LDA #2
        JSR waitl
        LDX frames          ; a different phase each frame: 5 Y + 1 cycles
e4:     DEX
        BNE e4
        LDA $FF1E
        STA buf+0
        LDA $FF1E
        STA buf+1
        LDA $FF1E
        STA buf+2
        LDA $FF1E
        STA buf+3
        LDA $FF1E
        STA buf+4
        LDA $FF1E
        STA buf+5
        LDA $FF1E
        STA buf+6
        LDA $FF1E
        STA buf+7
        LDA $FF1E
        STA buf+8
        LDA $FF1E
        STA buf+9
        LDA $FF1E
        STA buf+10
        LDA $FF1E
        STA buf+11
        LDA $FF1E
        STA buf+12
        LDA $FF1E
        STA buf+13
        LDA $FF1E
        STA buf+14
        LDA $FF1E
        STA buf+15
        LDA $FF1E
        STA buf+16
        LDA $FF1E
        STA buf+17
        LDA $FF1E
        STA buf+18
        LDA $FF1E
        STA buf+19
        LDA $FF1E
        STA buf+20
        LDA $FF1E
        STA buf+21
        LDA $FF1E
        STA buf+22
        LDA $FF1E
        STA buf+23
        LDX #1              ; the sample after a halt: a step back of
e5:     LDA buf,X           ; more than half the counter's range
        SEC
        SBC buf-1,X
        BPL e6
        LDA buf,X
        CMP best
        BCS e6
        STA best
e6:     INX
        CPX #24
        BNE e5
        LDY frames
        DEY
        BEQ e7
        JMP e1
e7:
        LDA best
        CMP #$90
        BCS n8
        JMP fail5
n8:
        CMP #$95
        BCC n9
        JMP fail5
n9:
        LDA #0
        STA $FDCF
        JMP *

fail1:  LDA #1
        .byte $2C
fail2:  LDA #2
        .byte $2C
fail3:  LDA #3
        .byte $2C
fail4:  LDA #4
        .byte $2C
fail5:  LDA #5
        STA $FDCF
        JMP *

; 200 samples of ($FF13, $FF1E); 29-35 cycles a sample, so the samples
; drift through the line's positions.
sample: LDY #0
s1:     LDX $FF13
        LDA $FF1E
        STA as,Y
        TXA
        STA xs,Y
        NOP
        NOP
        INY
        CPY #200
        BNE s1
        RTS

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

; Waits for line A (below 256).
waitl:  STA target
w1:     LDA $FF1C
        AND #1
        BNE w1
        LDA $FF1D
        CMP target
        BNE w1
        RTS

target: .byte 0
count:  .byte 0
count2: .byte 0
best:   .byte 0
frames: .byte 0
buf = $1600             ; $FF1E samples around line 3
xs = $1400              ; the $FF13 samples
as = $1500              ; the $FF1E samples
