; roms/vic20/kernal.s - the VIC-20 part of mcphost's boot ROM ($E000-$FFFF):
; power-on (chips, RAM size, screen origin), the keyboard matrix, the IRQ,
; BRK and NMI paths at the original KERNAL's addresses, and the jump table.
; The shared screen, keyboard, prompt and KERNAL routines are in
; roms/common. Written from the VIC-20's documented interfaces; no code of
; the original ROM is used.

        *= $E000
; ---- power-on, after the fixed entry at $FD22 ----
vic_reset:
        jsr cart_check
        bne vr_no_cart
        jmp ($A000)             ; an autostart cartridge at $A000 ("A0CBM")
vr_no_cart:
        jsr ramtas
        jsr restor
        jsr ioinit
        jsr cint
        cli
        lda #<banner
        ldy #>banner
        jsr print_string
        jmp ready

cart_check:
        ldx #4
cc_loop:
        lda cart_signature,x
        cmp $A004,x
        bne cc_done
        dex
        bpl cc_loop
        lda #0                  ; Z set: found
cc_done:
        rts
cart_signature:
        .byte $41, $30, $C3, $C2, $CD

; ---- RAMTAS: clears the KERNAL's pages, sizes RAM, places the screen ----
; Unexpanded (or +3K at $0400): screen at $1E00, memory up to $1E00.
; With RAM at $2000 (8K and more): screen at $1000, BASIC from $1201,
; memory up to the first page without RAM below $8000.
ramtas:
        lda #0
        tay
rt_clear:
        sta $0000,y
        sta $0200,y
        sta $0300,y
        iny
        bne rt_clear
        lda #$04                ; bottom of memory: $1000, or $0400 with 3K
        jsr ram_test
        ldx #$10
        bcc rt_bottom
        ldx #$04
rt_bottom:
        stx MEMSTR+1
        lda #$20
        jsr ram_test
        bcs rt_expanded
        lda #$1E
        sta HIBASE
        sta MEMSIZ+1
        bne rt_pointers
rt_expanded:
        lda #$10
        sta HIBASE
        lda #$12
        sta MEMSTR+1
        ldx #$20
rt_top:
        inx
        cpx #$80
        beq rt_found_top
        txa
        jsr ram_test
        bcs rt_top
rt_found_top:
        stx MEMSIZ+1
rt_pointers:
        lda #0
        sta MEMSTR
        sta MEMSIZ
        jmp set_basic_pointers

; C set when the byte at page A, offset 0, holds what is written to it
; (restored afterwards). Two patterns: an open bus cannot echo both.
ram_test:
        sta T0+1
        lda #0
        sta T0
        tay
        lda (T0),y
        sta T3
        lda #$55
        sta (T0),y
        cmp (T0),y
        bne rt_no
        lda #$AA
        sta (T0),y
        cmp (T0),y
        bne rt_no
        lda T3
        sta (T0),y
        sec
        rts
rt_no:
        lda T3
        sta (T0),y
        clc
        rts

; ---- IOINIT: the two VIAs as the original KERNAL leaves them ----
; Every line's direction and mode as the hardware is wired; nothing writes
; the IFRs, so a flag a line raised since power-on (the cassette motor's
; CA2 drifting low before it is driven) stays pending, as on the real
; machine. Register values: the state the original ROMs leave (docs/
; boot-roms.md).
ioinit:
        lda #$7F
        sta VIA1+14             ; no interrupt sources while setting up
        sta VIA2+14
        lda #$40                ; timer 1 free-running, timer 2 one-shot,
        sta VIA2+11             ; no shift register, no port latching
        sta VIA1+11
        lda #$FE                ; VIA1: CA1 (RESTORE) falling edge, CA2 (cassette
        sta VIA1+12             ; motor) high, CB1 (RS-232 in) rising, CB2 (RS-232 out) high
        lda #$DE                ; VIA2: CA1 (cassette read) falling, CA2 (serial
        sta VIA2+12             ; clock out) high, CB1 (SRQ) rising, CB2 (serial data out) low
        ldx #0
        stx VIA1+2              ; VIA1 port B: the user port, inputs
        stx VIA2+3              ; VIA2 port A: the keyboard's lines, inputs
        dex
        stx VIA2+2              ; VIA2 port B: the keyboard's select lines, outputs
        stx VIA2+0
        lda #$80
        sta VIA1+3              ; VIA1 port A: bit 7 (serial ATN out) an output,
        lda #0                  ; the joystick, lightpen, cassette sense and
        sta VIA1+15             ; serial inputs (no handshake: register 15); ATN released
        lda #$82
        sta VIA1+14             ; RESTORE (CA1) gives an NMI
        lda #$C0
        sta VIA2+14             ; timer 1 interrupts on
        lda #<JIFFY_LATCH
        sta VIA2+4
        lda #>JIFFY_LATCH
        sta VIA2+5              ; loads and starts the counter
        rts

; ---- CINT: the VIC for the model and screen origin, an empty screen ----
cint:
        ldx #15
ci_vic:
        lda vic_registers,x
        sta VIC,x
        dex
        bpl ci_vic
        lda HIBASE              ; screen address bits 13-10 (VIC side) into $9005
        clc
        adc #$20
        asl
        asl
        and #$F0
        sta VIC+5
        lda HIBASE              ; and bit 9 into $9002 bit 7
        and #$02
        beq ci_screen
        lda VIC+2
        ora #$80
        sta VIC+2
ci_screen:
        lda #6                  ; blue text
        sta COLOR
        lda #0
        sta RVS
        sta NDX
        sta DFLTN
        lda #3
        sta DFLTO
        lda #$40
        sta LSTX
        lda #1
        sta BLNSW               ; no cursor until a line is typed
        lda #KEY_BUF_SIZE
        sta XMAX
        jmp screen_clear


; the colour RAM's page for the screen at HIBASE: $9600 or $9400
color_page:
        lda HIBASE
        and #$02
        ora #$94
        rts

; $0E / $8E: the lower/upper case half of the character ROM ($8800/$8000)
charset_lower:
        lda VIC+5
        ora #$02
        sta VIC+5
        rts
charset_upper:
        lda VIC+5
        and #$FD
        sta VIC+5
        rts

; colour RAM values for the 16 PETSCII colour codes (8 on the VIC-20)
color_values:
        .byte 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7

; ---- the cursor while a line is typed: the IRQ blinks it ----
cursor_show:
        php
        sei
        ldy PNTR
        lda (PNT),y
        sta GDBLN
        lda #1
        sta BLNCT               ; reversed at the next jiffy
        lda #0
        sta BLNON
        sta BLNSW
        plp
        rts
cursor_hide:
        php
        sei
        lda #1
        sta BLNSW
        lda BLNON
        beq ch_done
        ldy PNTR
        lda GDBLN
        sta (PNT),y
        lda #0
        sta BLNON
ch_done:
        plp
        rts
; from the IRQ: every 20 jiffies the cursor cell flips between the
; character and its reverse
cursor_blink:
        lda BLNSW
        bne cb_done
        dec BLNCT
        bne cb_done
        lda #20
        sta BLNCT
        lda BLNON
        eor #1
        sta BLNON
        ldy PNTR
        lda GDBLN
        ldx BLNON
        beq cb_put
        eor #$80
cb_put:
        sta (PNT),y
cb_done:
        rts

; ---- the keyboard: VIA2 port B selects, port A reads ----
kbd_read_row:
        sta VIA2+0
kb_settle:
        lda VIA2+1
        cmp VIA2+1
        bne kb_settle
        rts
stop_scan:
        lda #$F7
        sta VIA2+0
        lda VIA2+15
        rts

; PETSCII per key, index = select bit * 8 + line bit (1: SHIFT, 0: none)
key_normal:
        .byte $31, $33, $35, $37, $39, $2B, $5C, $14    ; select 0
        .byte $5F, $57, $52, $59, $49, $50, $2A, $0D    ; select 1
        .byte $00, $41, $44, $47, $4A, $4C, $3B, $1D    ; select 2
        .byte $03, $01, $58, $56, $4E, $2C, $2F, $11    ; select 3
        .byte $20, $5A, $43, $42, $4D, $2E, $01, $85    ; select 4
        .byte $00, $53, $46, $48, $4B, $3A, $3D, $86    ; select 5
        .byte $51, $45, $54, $55, $4F, $40, $5E, $87    ; select 6
        .byte $32, $34, $36, $38, $30, $2D, $13, $88    ; select 7
key_shifted:
        .byte $21, $23, $25, $27, $29, $DB, $A9, $94
        .byte $5F, $D7, $D2, $D9, $C9, $D0, $C0, $8D
        .byte $00, $C1, $C4, $C7, $CA, $CC, $5D, $9D
        .byte $83, $01, $D8, $D6, $CE, $3C, $3F, $91
        .byte $A0, $DA, $C3, $C2, $CD, $3E, $01, $89
        .byte $00, $D3, $C6, $C8, $CB, $5B, $3D, $8A
        .byte $D1, $C5, $D4, $D5, $CF, $BA, $DE, $8B
        .byte $22, $24, $26, $28, $30, $DD, $93, $8C

banner:
        .byte $93, "MCPHOST FREE BOOT ROM", $0D
        .byte "(NO BASIC). GIVE THE", $0D
        .byte "ORIGINAL ROMS WITH", $0D
        .byte "--ROM-DIR.", $0D, $0D, 0

; the RAM vectors' defaults, $0314-$0333
default_vectors:
        .word irq_default, warm_start, nmi_default
        .word open_default, close_default, chkin_default, chkout_default
        .word clrchn_default, chrin_keyboard, screen_chrout, stop
        .word getin_keyboard, clall_default, warm_start, load_default, save_default

nmi_body:
        lda VIA1+13
        bpl nmi_exit            ; not from VIA1
        and VIA1+14
        tax
        and #$02
        beq nmi_other
        bit VIA1+1              ; RESTORE: reading port A clears CA1
        jsr $FFE1
        bne nmi_exit
        jmp warm_start          ; RUN/STOP + RESTORE
nmi_other:
        txa
        sta VIA1+13             ; acknowledge what else fired
nmi_exit:
        jmp $FF56

; ---- fixed addresses of the original KERNAL ----
        *= $E518
        jmp cint

        *= $EABF
irq_default:                    ; the default of CINV ($0314)
        jsr $FFEA               ; UDTIM
        jsr cursor_blink
        jmp $EB12
        *= $EB12
        jsr $EB1E               ; SCNKEY
        bit VIA2+4              ; acknowledges the timer 1 interrupt ($EB15)
        pla                     ; $EB18: the registers the IRQ entry saved
        tay
        pla
        tax
        pla
        rti
        jmp scnkey              ; $EB1E

        *= $EDE4
vic_registers:                  ; $9000-$900F at power-on, for the model
        .byte VIC_X, VIC_Y, $16, $2E, $00, $C0, $00, $00
        .byte $00, $00, $00, $00, $00, $00, $00, $1B

        *= $FD22
reset:
        ldx #$FF
        sei
        txs
        cld
        jmp vic_reset
        *= $FD52
        jmp restor
        *= $FD8D
        jmp ramtas
        *= $FDF9
        jmp ioinit

        *= $FEA9
nmi_entry:
        sei
        jmp (NMINV)
nmi_default:                    ; $FEAD
        pha
        txa
        pha
        tya
        pha
        jmp nmi_body
        *= $FED2
warm_start:                     ; BRK and RUN/STOP+RESTORE: back to READY.
        ldx #$FF
        txs
        jsr restor
        jsr ioinit
        jsr cint
        cli
        jmp ready
        *= $FF56
        pla                     ; the NMI exit
        tay
        pla
        tax
        pla
        rti

        *= $FF72
irq_entry:                      ; IRQ and BRK: save A, X, Y, tell them apart
        pha
        txa
        pha
        tya
        pha
        tsx
        lda $0104,x
        and #$10
        beq irq_not_brk
        jmp (CBINV)
irq_not_brk:
        jmp (CINV)

; ---- the jump table ($FF8A-$FFF5, as on the VIC-20) ----
        *= $FF8A
        jmp restor              ; RESTOR
        jmp vector              ; VECTOR
        jmp setmsg              ; SETMSG
        jmp serial_absent       ; SECOND
        jmp serial_absent       ; TKSA
        jmp memtop              ; MEMTOP
        jmp membot              ; MEMBOT
        jmp $EB1E               ; SCNKEY
        jmp settmo              ; SETTMO
        jmp serial_absent       ; ACPTR
        jmp serial_absent       ; CIOUT
        jmp serial_absent       ; UNTLK
        jmp serial_absent       ; UNLSN
        jmp serial_absent       ; LISTEN
        jmp serial_absent       ; TALK
        jmp readst              ; READST
        jmp setlfs              ; SETLFS
        jmp setnam              ; SETNAM
        jmp ($031A)             ; OPEN
        jmp ($031C)             ; CLOSE
        jmp ($031E)             ; CHKIN
        jmp ($0320)             ; CHKOUT
        jmp ($0322)             ; CLRCHN
        jmp ($0324)             ; CHRIN
        jmp ($0326)             ; CHROUT
        jmp load_entry          ; LOAD
        jmp save_entry          ; SAVE
        jmp settim              ; SETTIM
        jmp rdtim               ; RDTIM
        jmp ($0328)             ; STOP
        jmp ($032A)             ; GETIN
        jmp ($032C)             ; CLALL
        jmp udtim               ; UDTIM
        jmp screen_size         ; SCREEN
        jmp plot                ; PLOT
        jmp iobase              ; IOBASE

        *= $FFFA
        .word nmi_entry, reset, irq_entry
