; roms/plus4/kernal.s - the Plus/4 part of mcphost's boot ROM ($C000-$FFFF;
; $D000-$D7FF stays free for the character set): power-on (TED, keyboard
; port, RAM size), the keyboard matrix, the IRQ entry and exits at the
; original addresses (banking-safe: $FCB3 entry, $CE00 dispatch, $FCBE
; exit), the jump table and PRIMM. The shared screen, keyboard, prompt and
; KERNAL routines are in roms/common. Written from the Plus/4's documented
; interfaces; no code of the original ROM is used.

        *= $C000
plus4_reset:
        lda #0
        sta CURBNK
        sta BANK_SELECT         ; system ROMs in both halves
        jsr ioinit
        jsr ramtas
        jsr restor
        jsr cint
        cli
        lda #<banner
        ldy #>banner
        jsr print_string
        jmp ready

; ---- RAMTAS: clears the KERNAL's pages, sizes RAM (16 KiB or 64 KiB) ----
ramtas:
        lda #0
        ldy #2                  ; $00/$01 are the CPU's port
rt_zp:
        sta $0000,y
        iny
        bne rt_zp
rt_pages:
        sta $0200,y
        sta $0300,y
        sta $0400,y
        sta $0500,y
        sta $0600,y
        sta $0700,y
        iny
        bne rt_pages
        lda #$10
        sta MEMSTR+1
        lda #$A5                ; with 16 KiB, $7FFF is $3FFF again
        sta $7FFF
        lda #$5A
        sta $3FFF
        ldx #$40
        lda $7FFF
        cmp #$A5
        bne rt_top
        ldx #$FD                ; 64 KiB: up to the I/O area
rt_top:
        stx MEMSIZ+1
        lda #0
        sta MEMSTR
        sta MEMSIZ
        jmp set_basic_pointers

; ---- IOINIT: the CPU port and the keyboard port ----
ioinit:
        lda #$0F
        sta $00
        lda #$08
        sta $01
        lda #$FF
        sta KEYPORT
        sta TED+8
        rts

; ---- CINT: the TED in text mode (screen $0C00, attributes $0800,
; characters from ROM at $D000, one raster IRQ per frame) ----
cint:
        ldx #ted_count-1
ci_ted:
        lda ted_values,x
        sta TED+6,x
        dex
        bpl ci_ted
        lda #$FF
        sta TED+9               ; nothing pending
        lda #$0C
        sta HIBASE
        lda #0                  ; black text
        sta COLOR
        sta RVS
        sta NDX
        sta DFLTN
        lda #3
        sta DFLTO
        lda #$40
        sta LSTX
        jmp screen_clear

ted_values:                     ; $FF06-$FF19
        .byte $1B, $08+NTSC*$40, $FF, $FF, $02, $CC, $03, $FF
        .byte $00, $00, $00, $00, $C4, $D0, $08, $71
        .byte $00, $00, $00, $6E
ted_count = 20

color_page:
        lda #$08
        rts

; $0E / $8E: the lower/upper case character set ($D400/$D000)
charset_lower:
        lda TED+$13
        and #$03
        ora #$D4
        sta TED+$13
        rts
charset_upper:
        lda TED+$13
        and #$03
        ora #$D0
        sta TED+$13
        rts

; attribute values (luminance * 16 + colour) for the 16 PETSCII colour codes
color_values:
        .byte $00, $71, $32, $63, $44, $35, $46, $77
        .byte $48, $29, $5A, $11, $31, $55, $6D, $51

; ---- the cursor while a line is typed: the TED's own (it blinks) ----
cursor_show:
        lda PNT
        sec
        sbc #<$0C00
        sta T3
        lda PNT+1
        sbc #>$0C00
        tax
        clc
        lda T3
        adc PNTR
        bcc cs_set
        inx
cs_set:
        sta TED+$0D
        stx TED+$0C
        rts
cursor_hide:
        lda #$03                ; position $3FF: off the screen
        sta TED+$0C
        lda #$FF
        sta TED+$0D
        rts

; ---- the keyboard: $FD30 selects, the TED's $FF08 latch reads ----
kbd_read_row:
        sta KEYPORT
        sta TED+8
        lda TED+8
        rts
stop_scan:
        lda #$7F
        jsr kbd_read_row
        ora #$7F
        rts

; PETSCII per key, index = select bit * 8 + line bit (1: SHIFT, 0: none)
key_normal:
        .byte $14, $0D, $5C, $8C, $85, $89, $86, $40    ; select 0
        .byte $33, $57, $41, $34, $5A, $53, $45, $01    ; select 1
        .byte $35, $52, $44, $36, $43, $46, $54, $58    ; select 2
        .byte $37, $59, $47, $38, $42, $48, $55, $56    ; select 3
        .byte $39, $49, $4A, $30, $4D, $4B, $4F, $4E    ; select 4
        .byte $11, $50, $4C, $91, $2E, $3A, $2D, $2C    ; select 5
        .byte $9D, $2A, $3B, $1D, $1B, $3D, $2B, $2F    ; select 6
        .byte $31, $13, $00, $32, $20, $00, $51, $03    ; select 7
key_shifted:
        .byte $94, $8D, $A9, $88, $8A, $87, $8B, $BA
        .byte $23, $D7, $C1, $24, $DA, $D3, $C5, $01
        .byte $25, $D2, $C4, $26, $C3, $C6, $D4, $D8
        .byte $27, $D9, $C7, $28, $C2, $C8, $D5, $D6
        .byte $29, $C9, $CA, $30, $CD, $CB, $CF, $CE
        .byte $11, $D0, $CC, $91, $3E, $5B, $DD, $3C
        .byte $9D, $C0, $5D, $1D, $1B, $3D, $DB, $3F
        .byte $21, $93, $00, $22, $A0, $00, $D1, $83

banner:
        .byte $93, "MCPHOST FREE BOOT ROM (NO BASIC)", $0D
        .byte "GIVE THE ORIGINAL ROMS WITH --ROM-DIR.", $0D, $0D, 0

; the RAM vectors' defaults, $0314-$0331
default_vectors:
        .word irq_default, warm_start
        .word open_default, close_default, chkin_default, chkout_default
        .word clrchn_default, chrin_keyboard, screen_chrout, stop
        .word getin_keyboard, clall_default, warm_start, load_default, save_default

; BRK: back to READY.
warm_start:
        ldx #$FF
        txs
        jsr restor
        jsr ioinit
        jsr cint
        cli
        jmp ready

; ---- PRIMM ($FF4F): prints the zero-terminated text after the JSR ----
primm:
        pha
        txa
        pha
        tya
        pha
        tsx
        lda $0104,x
        sta T1
        lda $0105,x
        sta T1+1
pm_next:
        inc T1
        bne pm_read
        inc T1+1
pm_read:
        ldy #0
        lda (T1),y
        beq pm_end
        jsr CHROUT_ENTRY
        jmp pm_next
pm_end:
        tsx
        lda T1
        sta $0104,x
        lda T1+1
        sta $0105,x
        pla
        tay
        pla
        tax
        pla
        rts

; ---- fixed addresses of the original KERNAL ----
        *= $CE00
irq_dispatch:                   ; from $FCB3: IRQ or BRK?
        tsx
        lda $0104,x
        and #$10
        bne irq_brk
        jmp (CINV)
irq_brk:
        jmp (CBINV)
irq_default:                    ; $CE0E, the default of CINV ($0314)
        lda TED+9
        sta TED+9               ; acknowledges what fired
        and #$02
        beq irq_done            ; not the raster interrupt
        jsr $FFEA               ; UDTIM
        jsr $FF9F               ; SCNKEY
irq_done:
        jmp $FCBE

        *= $F2A4
reset:                          ; also the NMI vector, as on the original
        ldx #$FF
        sei
        txs
        cld
        jmp plus4_reset

        *= $FCB3
irq_entry:
        pha
        txa
        pha
        tya
        pha
        sta BANK_SELECT         ; system ROMs in, whatever bank ran
        jmp irq_dispatch
irq_exit:                       ; $FCBE: the bank that ran, the registers
        ldx CURBNK
        sta BANK_SELECT,x
        pla
        tay
        pla
        tax
        pla
        rti
        ldx CURBNK              ; $FCC9: the bank, then JMP ($02FE)
        sta BANK_SELECT,x
        jmp ($02FE)

        *= $FF49
        jmp sec_rts             ; DEFKEY: no function-key strings
        jmp sec_rts             ; PRINT
        jmp primm               ; PRIMM
        jmp sec_rts             ; MONITOR: there is none

; ---- the jump table ($FF81-$FFF5) ----
        *= $FF81
        jmp cint                ; CINT
        jmp ioinit              ; IOINIT
        jmp ramtas              ; RAMTAS
        jmp restor              ; RESTOR
        jmp vector              ; VECTOR
        jmp setmsg              ; SETMSG
        jmp serial_absent       ; SECOND
        jmp serial_absent       ; TKSA
        jmp memtop              ; MEMTOP
        jmp membot              ; MEMBOT
        jmp scnkey              ; SCNKEY
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
        jmp ($0318)             ; OPEN
        jmp ($031A)             ; CLOSE
        jmp ($031C)             ; CHKIN
        jmp ($031E)             ; CHKOUT
        jmp ($0320)             ; CLRCHN
        jmp ($0322)             ; CHRIN
        jmp ($0324)             ; CHROUT
        jmp load_entry          ; LOAD
        jmp save_entry          ; SAVE
        jmp settim              ; SETTIM
        jmp rdtim               ; RDTIM
        jmp ($0326)             ; STOP
        jmp ($0328)             ; GETIN
        jmp ($032A)             ; CLALL
        jmp udtim               ; UDTIM
        jmp screen_size         ; SCREEN
        jmp plot                ; PLOT
        jmp iobase              ; IOBASE
        sta ROM_ON              ; $FFF6: reset starts with the ROMs on;
        jmp reset               ; this JMP's operand is the NMI vector ($FFFA)
        .word $FFF6, irq_entry  ; RESET, IRQ
