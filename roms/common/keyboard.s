; roms/common/keyboard.s - SCNKEY (the keyboard matrix into the keyboard
; buffer) and GETIN (a key from the buffer), shared by both boot ROMs.
; Needs from the machine: kbd_read_row (A = select mask, one bit low ->
; A = the eight key lines, 0 = pressed), the table key_normal/key_shifted
; (64 PETSCII codes each, index = select bit * 8 + line bit; 1 marks a
; SHIFT key, 0 a key without a code), NDX, KEYD, LSTX, SHFLAG and the
; IRQ-only scratch bytes KS_BITS, KS_IDX, KS_KEY, KS_SEL, KS_DELAY.

; ---- SCNKEY: runs from the IRQ; a new key once, SPACE, DEL and the
; cursor keys repeat while held ----
scnkey:
        lda #0
        sta SHFLAG
        sta KS_IDX
        lda #$40                ; $40: no key
        sta KS_KEY
        ldx #0
sk_select:
        lda select_masks,x
        jsr kbd_read_row
        eor #$FF                ; 1 = pressed
        sta KS_BITS
        ldy #8
sk_line:
        lsr KS_BITS
        bcc sk_next
        stx KS_SEL
        ldx KS_IDX
        lda key_normal,x
        ldx KS_SEL
        cmp #1
        beq sk_shift
        cmp #0
        beq sk_next
        lda KS_KEY
        cmp #$40
        bne sk_next             ; the first key found wins
        lda KS_IDX
        sta KS_KEY
        jmp sk_next
sk_shift:
        lda #1
        sta SHFLAG
sk_next:
        inc KS_IDX
        dey
        bne sk_line
        inx
        cpx #8
        bne sk_select
        lda #$FF
        jsr kbd_read_row        ; leave all select lines high
        lda KS_KEY
        cmp LSTX
        beq sk_held
        sta LSTX
        cmp #$40
        beq sk_done
        lda #REPEAT_FIRST
        sta KS_DELAY
        jsr sk_code
        jmp sk_store
sk_held:                        ; the same key (or none) still
        cmp #$40
        beq sk_done
        dec KS_DELAY
        bne sk_done
        lda #REPEAT_NEXT
        sta KS_DELAY
        jsr sk_code
        ldx #repeat_count-1     ; only these keys repeat, as on the originals
sk_repeatable:
        cmp repeat_codes,x
        beq sk_store
        dex
        bpl sk_repeatable
        rts
sk_store:
        ldx NDX
        cpx #KEY_BUF_SIZE
        bcs sk_done             ; buffer full: the key is lost, as on the originals
        sta KEYD,x
        inc NDX
sk_done:
        rts

; A = the code of key LSTX with or without SHIFT
sk_code:
        ldx LSTX
        lda SHFLAG
        beq sc_unshifted
        lda key_shifted,x
        rts
sc_unshifted:
        lda key_normal,x
        rts

select_masks:
        .byte $FE, $FD, $FB, $F7, $EF, $DF, $BF, $7F
REPEAT_FIRST = 16               ; jiffies before a held key repeats
REPEAT_NEXT = 4                 ; and between repeats
repeat_codes:                   ; SPACE, DEL, INST, cursor keys
        .byte $20, $14, $94, $11, $91, $1D, $9D
repeat_count = 7

; ---- GETIN from the keyboard: A = next key or 0; carry clear ----
getin_keyboard:
        lda NDX
        beq gk_none
        sei
        ldy KEYD
        ldx #0
gk_shift:
        lda KEYD+1,x
        sta KEYD,x
        inx
        cpx NDX
        bne gk_shift
        dec NDX
        tya
        cli
gk_none:
        clc
        rts
