; roms/common/screen.s - the screen editor's output side, shared by the
; VIC-20 and Plus/4 boot ROMs: CHROUT to the screen with the control codes
; that matter (CR, clear, home, cursor moves, colours, reverse on/off,
; delete), scrolling, PLOT and the cursor pointers.
; Needs from the machine's defs: COLS, ROWS, PNT, PNTR, TBLX, USER, COLOR,
; RVS, HIBASE, T0-T3 (scratch pointers), the routines color_page (A = high
; byte of the colour RAM that belongs to the screen at HIBASE),
; charset_lower and charset_upper ($0E and $8E), and the table
; color_values (16 colour RAM values in PETSCII colour-code order).

; ---- screen_clear: blank screen and colour RAM, cursor home ----
screen_clear:
        lda HIBASE
        sta T0+1
        jsr color_page
        sta T2+1
        lda #0
        sta T0
        sta T2
        ldx #(COLS*ROWS+255)/256    ; whole pages to touch (rounded up)
sc_page:
        ldy #0
sc_byte:
        lda #$20
        sta (T0),y
        lda COLOR
        sta (T2),y
        iny
        bne sc_byte
        inc T0+1
        inc T2+1
        dex
        bne sc_page
screen_home:
        lda #0
        sta PNTR
        sta TBLX
; ---- set_line: PNT and USER from TBLX (row start in screen and colour RAM) ----
set_line:
        lda #0
        sta PNT
        lda HIBASE
        sta PNT+1
        ldx TBLX
        beq sl_color
sl_add:
        clc
        lda PNT
        adc #COLS
        sta PNT
        bcc sl_next
        inc PNT+1
sl_next:
        dex
        bne sl_add
sl_color:
        lda PNT
        sta USER
        jsr color_page
        sta USER+1
        sec
        lda PNT+1
        sbc HIBASE
        clc
        adc USER+1
        sta USER+1
        rts

; ---- CHROUT to the screen: A = PETSCII; A, X, Y preserved, carry clear ----
screen_chrout:
        pha
        sta T3
        txa
        pha
        tya
        pha
        lda T3
        jsr screen_put
        pla
        tay
        pla
        tax
        pla
        clc
        rts

screen_put:
        ldx #control_count-1
sp_find:
        cmp control_codes,x
        beq sp_control
        dex
        bpl sp_find
        ldx #15
sp_color:
        cmp color_codes,x
        beq sp_set_color
        dex
        bpl sp_color
        ; printable? $20-$7F and $A0-$FF have screen codes
        cmp #$20
        bcc sp_ignore
        cmp #$80
        bcc sp_printable
        cmp #$A0
        bcs sp_printable
sp_ignore:
        rts
sp_set_color:
        lda color_values,x
        sta COLOR
        rts
sp_control:
        lda control_high,x
        pha
        lda control_low,x
        pha
        rts                     ; "jumps" to the handler (address - 1 pushed)
sp_printable:
        jsr petscii_to_screen
        ora RVS
        ldy PNTR
        sta (PNT),y
        lda COLOR
        sta (USER),y
        iny
        sty PNTR
        cpy #COLS
        bcc sp_done
        lda #0
        sta PNTR
        jmp cursor_down
sp_done:
        rts

; PETSCII -> screen code (upper case / graphics set); A in, A out.
petscii_to_screen:
        cmp #$FF
        beq pts_pi
        cmp #$40
        bcc pts_done            ; $20-$3F: the same
        cmp #$60
        bcc pts_minus40         ; $40-$5F -> $00-$1F
        cmp #$80
        bcc pts_minus20         ; $60-$7F -> $40-$5F
        cmp #$C0
        bcc pts_minus40         ; $A0-$BF -> $60-$7F
        cmp #$E0
        bcc pts_minus80         ; $C0-$DF -> $40-$5F
        sec
        sbc #$80                ; $E0-$FE -> $60-$7E
        rts
pts_minus80:
        sec
        sbc #$40
pts_minus40:
        sec
        sbc #$20
pts_minus20:
        sec
        sbc #$20
pts_done:
        rts
pts_pi:
        lda #$5E
        rts

; ---- control codes ----
control_codes:
        .byte $0D, $8D, $93, $13, $11, $91, $1D, $9D, $12, $92, $14, $0E, $8E
control_count = 13
control_low:
        .byte <(ctl_return-1), <(ctl_return-1), <(screen_clear-1), <(screen_home-1)
        .byte <(cursor_down-1), <(cursor_up-1), <(cursor_right-1), <(cursor_left-1)
        .byte <(rvs_on-1), <(rvs_off-1), <(ctl_delete-1), <(charset_lower-1)
        .byte <(charset_upper-1)
control_high:
        .byte >(ctl_return-1), >(ctl_return-1), >(screen_clear-1), >(screen_home-1)
        .byte >(cursor_down-1), >(cursor_up-1), >(cursor_right-1), >(cursor_left-1)
        .byte >(rvs_on-1), >(rvs_off-1), >(ctl_delete-1), >(charset_lower-1)
        .byte >(charset_upper-1)

; PETSCII colour codes, in the order of the colour numbers 0-15
color_codes:
        .byte $90, $05, $1C, $9F, $9C, $1E, $1F, $9E
        .byte $81, $95, $96, $97, $98, $99, $9A, $9B

ctl_return:
        lda #0
        sta PNTR
        sta RVS
cursor_down:
        ldx TBLX
        inx
        cpx #ROWS
        bcc cd_set
        jsr scroll_up
        ldx #ROWS-1
cd_set:
        stx TBLX
        jmp set_line
cursor_up:
        ldx TBLX
        beq cu_done
        dex
        stx TBLX
        jmp set_line
cu_done:
        rts
cursor_right:
        ldy PNTR
        iny
        cpy #COLS
        bcc cr_set
        ldy #0
        sty PNTR
        jmp cursor_down
cr_set:
        sty PNTR
        rts
cursor_left:
        ldy PNTR
        beq cl_wrap
        dey
        sty PNTR
        rts
cl_wrap:
        ldx TBLX
        beq cl_done
        ldy #COLS-1
        sty PNTR
        jmp cursor_up
cl_done:
        rts
rvs_on:
        lda #$80
        sta RVS
        rts
rvs_off:
        lda #0
        sta RVS
        rts
ctl_delete:
        jsr cursor_left
        ldy PNTR
        lda #$20
        sta (PNT),y
        rts

; ---- scroll_up: rows 1..ROWS-1 move up one row, the last row is blanked ----
scroll_up:
        lda HIBASE
        jsr scroll_area
        jsr color_page
        jsr scroll_area
        lda #0
        sta T0
        lda HIBASE
        sta T0+1
        ldy #COLS-1
su_blank:
        lda #$20
        jsr su_last_row
        dey
        bpl su_blank
        rts
; stores A at (row ROWS-1, column Y) of the screen at T0+1 (high byte)
su_last_row:
        pha
        lda #<((ROWS-1)*COLS)
        sta T2
        lda T0+1
        clc
        adc #>((ROWS-1)*COLS)
        sta T2+1
        pla
        sta (T2),y
        rts

; copies (ROWS-1)*COLS bytes from page A + COLS down to page A
scroll_area:
        sta T0+1
        sta T2+1
        lda #0
        sta T0
        lda #COLS
        sta T2
        ldx #<((ROWS-1)*COLS)
        lda #>((ROWS-1)*COLS)
        sta T1_COUNT
        ldy #0
sa_loop:
        txa
        bne sa_copy
        lda T1_COUNT
        beq sa_done
        dec T1_COUNT
sa_copy:
        dex
        lda (T2),y
        sta (T0),y
        inc T0
        bne sa_src
        inc T0+1
sa_src:
        inc T2
        bne sa_loop
        inc T2+1
        bne sa_loop
sa_done:
        rts

; ---- PLOT: carry set reads (X = row, Y = column), carry clear sets ----
plot:
        bcc plot_set
        ldx TBLX
        ldy PNTR
        rts
plot_set:
        stx TBLX
        sty PNTR
        jsr set_line
        clc
        rts

; ---- print_string: prints the zero-terminated string at A (low), Y (high) ----
print_string:
        sta T1
        sty T1+1
        ldy #0
ps_loop:
        lda (T1),y
        beq ps_done
        jsr CHROUT_ENTRY
        iny
        bne ps_loop
ps_done:
        rts
