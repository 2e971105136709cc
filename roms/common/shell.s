; roms/common/shell.s - the READY prompt of the boot ROMs: line input with
; echo, CHRIN from the keyboard, and the two commands that start programs
; without BASIC: RUN (finds the first SYS line of the BASIC program at
; TXTTAB and calls its address), SYS n, LOAD"name",device,sa (what a
; disk autostart types) and SAVE"name",device (the program from TXTTAB to
; VARTAB, through the KERNAL's SAVE entry, which the machine's virtual
; drive traps for device 8). The wait for a key is an
; "LDA NDX" loop with interrupts on, which mcphost's autostart recognises
; (mh_kernal_waits_for_key).

; ---- ready: prints READY. and runs the prompt forever ----
ready:
        lda PNTR
        beq rd_col0
        lda #$0D
        jsr CHROUT_ENTRY
rd_col0:
        lda #<msg_ready
        ldy #>msg_ready
        jsr print_string
main_loop:
        jsr read_line
        jsr execute
        jmp main_loop

; ---- read_line: a line into BUF (CR at its end), echoed ----
read_line:
        lda #0
        sta LINE_LEN
        sta LINE_POS
rl_next:
        jsr cursor_show
        cli
rl_wait:
        lda NDX                 ; the wait for a key that autostart looks for
        beq rl_wait
        jsr cursor_hide
        jsr getin_keyboard
        cmp #$0D
        beq rl_end
        cmp #$14
        beq rl_delete
        cmp #$20
        bcc rl_next             ; other control codes are not part of a line
        cmp #$80
        bcc rl_char
        cmp #$A0
        bcc rl_next
rl_char:
        ldx LINE_LEN
        cpx #LINE_MAX
        bcs rl_next
        sta BUF,x
        inc LINE_LEN
        jsr CHROUT_ENTRY
        jmp rl_next
rl_delete:
        ldx LINE_LEN
        beq rl_next
        dec LINE_LEN
        jsr CHROUT_ENTRY
        jmp rl_next
rl_end:
        ldx LINE_LEN
        sta BUF,x
        inx
        stx LINE_LEN
        jmp CHROUT_ENTRY

; ---- CHRIN from the keyboard: the next character of a typed line ----
chrin_keyboard:
        txa
        pha
        tya
        pha
        ldx LINE_POS
        cpx LINE_LEN
        bcc ck_give
        jsr read_line
        ldx #0
ck_give:
        lda BUF,x
        inx
        stx LINE_POS
        cmp #$0D
        bne ck_done
        ldx #0
        stx LINE_LEN
        stx LINE_POS
ck_done:
        sta T3
        pla
        tay
        pla
        tax
        lda T3
        clc
        rts

; ---- execute: the line in BUF ----
execute:
        lda #<BUF
        sta T0
        lda #>BUF
        sta T0+1
        ldy #0
ex_skip:
        lda (T0),y
        cmp #$20
        bne ex_word
        iny
        bne ex_skip
ex_word:
        cmp #$0D
        beq ex_empty
        ldx #0
        jsr match_word
        bne ex_not_run
        jmp run_program
ex_not_run:
        ldx #4
        jsr match_word
        bne ex_not_sys
        jmp sys_command
ex_not_sys:
        ldx #8
        jsr match_word
        bne ex_not_load
        jmp load_command
ex_not_load:
        ldx #13
        jsr match_word
        bne ex_unknown
        jmp save_command
ex_unknown:
        lda #<msg_unknown
        ldy #>msg_unknown
        jmp error
ex_empty:
        rts

; Z set when the letters of command_words+X (up to a 0) start at (T0),Y; then Y
; points after them.
match_word:
        sty T3
mw_loop:
        lda command_words,x
        beq mw_done             ; Z set: all letters matched
        cmp (T0),y
        bne mw_fail
        inx
        iny
        bne mw_loop
mw_fail:
        ldy T3
        lda #1                  ; Z clear: no match
mw_done:
        rts

command_words:
        .byte "RUN", 0, "SYS", 0, "LOAD", 0, "SAVE", 0

; ---- SYS n ----
sys_command:
        jsr parse_number
        bcs sys_syntax
        jsr call_num
        jmp ready
sys_syntax:
        lda #<msg_syntax
        ldy #>msg_syntax
        jmp error
call_num:
        jmp (NUM)

; ---- LOAD"name"[,device[,sa]]: through the LOAD entry (the machine's
; virtual drive answers device 8); device 8 when none is given; a BASIC
; program's end becomes VARTAB as BASIC's LOAD does ----
load_command:
        jsr file_args
        lda #<msg_loading
        ldy #>msg_loading
        jsr print_string
        jsr file_setup
        lda #0
        ldx TXTTAB
        ldy TXTTAB+1
        jsr $FFD5               ; LOAD
        bcs file_error
        stx VARTAB
        sty VARTAB+1
        stx ARYTAB
        sty ARYTAB+1
        stx STREND
        sty STREND+1
        jmp ready

; ---- SAVE"name"[,device[,sa]]: TXTTAB up to VARTAB through the SAVE
; entry, as BASIC's SAVE does; device 8 when none is given ----
save_command:
        jsr file_args
        lda #<msg_saving
        ldy #>msg_saving
        jsr print_string
        jsr file_setup
        lda #TXTTAB
        ldx VARTAB
        ldy VARTAB+1
        jsr $FFD8               ; SAVE
        bcs file_error
        jmp ready

; The KERNAL's error number in A as a message, then READY.
file_error:
        ldx #load_error_count-1
le_find:
        cmp load_error_codes,x
        beq le_found
        dex
        bne le_find             ; entry 0: any other error
le_found:
        lda load_error_low,x
        ldy load_error_high,x
        jmp error

; "name"[,device[,sa]] at (T0),Y into LD_START/LD_LEN, LD_DEVICE (8 when
; not given) and LD_SA (0)
file_args:
        lda #8
        sta LD_DEVICE
        lda #0
        sta LD_SA
        sta LD_START
        tax                     ; the name's length
ld_skip:
        lda (T0),y
        cmp #$20
        bne ld_quote
        iny
        bne ld_skip
ld_quote:
        cmp #$22
        bne ld_args
        iny
        sty LD_START
ld_name:
        lda (T0),y
        cmp #$0D
        beq ld_args
        iny
        cmp #$22
        beq ld_args
        inx
        bne ld_name
ld_args:
        stx LD_LEN
        jsr ld_comma_number
        bcs fa_done
        lda NUM
        sta LD_DEVICE
        jsr ld_comma_number
        bcs fa_done
        lda NUM
        sta LD_SA
fa_done:
        rts

; SETNAM and SETLFS (file 1) from what file_args found
file_setup:
        clc
        lda #<BUF
        adc LD_START
        tax
        lda #>BUF
        adc #0
        tay
        lda LD_LEN
        jsr $FFBD               ; SETNAM
        lda #1
        ldx LD_DEVICE
        ldy LD_SA
        jmp $FFBA               ; SETLFS

; C clear and NUM set when ",number" follows at (T0),Y
ld_comma_number:
        lda (T0),y
        cmp #$20
        bne ld_comma
        iny
        bne ld_comma_number
ld_comma:
        cmp #$2C
        bne ld_no_number
        iny
        jmp parse_number
ld_no_number:
        sec
        rts

load_error_codes:
        .byte 0, 4, 5, 8, 9
load_error_count = 5
load_error_low:
        .byte <msg_load_error, <msg_not_found, <msg_no_device, <msg_no_name, <msg_bad_device
load_error_high:
        .byte >msg_load_error, >msg_not_found, >msg_no_device, >msg_no_name, >msg_bad_device

; ---- RUN: the first line of the program at TXTTAB with SYS n, called ----
run_program:
        lda TXTTAB
        sta T0
        lda TXTTAB+1
        sta T0+1
        ldx #0                  ; at most 256 lines (a broken link list ends)
rp_line:
        ldy #1
        lda (T0),y
        beq rp_none             ; link high byte 0: end of program
        ldy #4
rp_scan:
        lda (T0),y
        beq rp_next_line
        cmp #$9E                ; the SYS token
        beq rp_found
        iny
        bne rp_scan
rp_next_line:
        ldy #0
        lda (T0),y
        pha
        iny
        lda (T0),y
        sta T0+1
        pla
        sta T0
        dex
        bne rp_line
rp_none:
        lda #<msg_no_sys
        ldy #>msg_no_sys
        jmp error
rp_found:
        iny
        jsr parse_number
        bcs rp_none
        jsr call_num
        jmp ready

; ---- parse_number: decimal at (T0),Y (spaces and '(' skipped) into NUM;
; carry set when there is no digit ----
parse_number:
        lda #0
        sta NUM
        sta NUM+1
        sta NUM_DIGITS
pn_skip:
        lda (T0),y
        cmp #$20
        beq pn_skip_one
        cmp #$28
        bne pn_digit
pn_skip_one:
        iny
        bne pn_skip
pn_digit:
        lda (T0),y
        cmp #$30
        bcc pn_end
        cmp #$3A
        bcs pn_end
        and #$0F
        pha
        asl NUM                 ; NUM = NUM * 10 + digit
        rol NUM+1
        lda NUM
        sta T3
        ldx NUM+1
        asl NUM
        rol NUM+1
        asl NUM
        rol NUM+1
        clc
        lda NUM
        adc T3
        sta NUM
        txa
        adc NUM+1
        sta NUM+1
        pla
        clc
        adc NUM
        sta NUM
        bcc pn_no_carry
        inc NUM+1
pn_no_carry:
        inc NUM_DIGITS
        iny
        bne pn_digit
pn_end:
        lda NUM_DIGITS
        cmp #1                  ; carry clear when there was no digit
        bcc pn_fail
        clc
        rts
pn_fail:
        sec
        rts

; ---- error: prints the message at A/Y, then READY. ----
error:
        pha
        tya
        pha
        lda PNTR
        beq er_col0
        lda #$0D
        jsr CHROUT_ENTRY
er_col0:
        pla
        tay
        pla
        jsr print_string
        jmp ready

msg_ready:
        .byte "READY.", $0D, 0
msg_unknown:
        .byte "?ONLY RUN AND SYS N", $0D, 0
msg_syntax:
        .byte "?SYS NEEDS AN ADDRESS", $0D, 0
msg_no_sys:
        .byte "?NO SYS LINE TO RUN", $0D, 0
msg_loading:
        .byte "LOADING", $0D, 0
msg_saving:
        .byte "SAVING", $0D, 0
msg_load_error:
        .byte "?LOAD ERROR", $0D, 0
msg_not_found:
        .byte "?FILE NOT FOUND", $0D, 0
msg_no_device:
        .byte "?DEVICE NOT PRESENT", $0D, 0
msg_no_name:
        .byte "?MISSING FILE NAME", $0D, 0
msg_bad_device:
        .byte "?ILLEGAL DEVICE", $0D, 0
