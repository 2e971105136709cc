; roms/common/kernal.s - the KERNAL jump-table routines both boot ROMs
; share: files and devices (SETLFS, SETNAM, OPEN ... CLALL, LOAD, SAVE and
; the serial-bus entries, which answer "device not present"), the clock
; (UDTIM, RDTIM, SETTIM), STOP, MEMTOP/MEMBOT, SCREEN, IOBASE, READST,
; SETMSG, SETTMO, RESTOR and VECTOR.
; Needs from the machine: the variables in its defs file, RAM_VECTORS and
; default_vectors (VECTOR_BYTES long), stop_scan (A = STOP key line, stored
; in STKEY), STOP_PRESSED, IO_BASE, and the RAM vector names I_LOAD,
; I_SAVE.

ERR_FILE_NOT_OPEN = 3
ERR_DEVICE_NOT_PRESENT = 5

setlfs:
        sta LA
        stx FA
        sty SA
        rts
setnam:
        sta FNLEN
        stx FNADR
        sty FNADR+1
        rts
readst:
        lda STATUS
        rts
setmsg:
        sta MSGFLG
        lda STATUS
        rts
settmo:
        sta TIMOUT
        rts
memtop:
        bcc mt_set
        ldx MEMSIZ
        ldy MEMSIZ+1
mt_set:
        stx MEMSIZ
        sty MEMSIZ+1
        rts
membot:
        bcc mb_set
        ldx MEMSTR
        ldy MEMSTR+1
mb_set:
        stx MEMSTR
        sty MEMSTR+1
        rts
screen_size:
        ldx #COLS
        ldy #ROWS
        rts
iobase:
        ldx #<IO_BASE
        ldy #>IO_BASE
        rts

; ---- the serial bus: nothing answers (ST bit 7, "device not present") ----
serial_absent:
        lda #$80
        ora STATUS
        sta STATUS
        lda #0
        sec
        rts

; ---- files: none can be opened; the screen and keyboard always work ----
open_default:
        lda #ERR_DEVICE_NOT_PRESENT
        sec
        rts
close_default:
        clc
        rts
chkin_default:
chkout_default:
        lda #ERR_FILE_NOT_OPEN
        sec
        rts
clrchn_default:
        lda #0
        sta DFLTN
        lda #3
        sta DFLTO
        clc
        rts
clall_default:
        lda #0
        sta LDTND
        jmp clrchn_default

; ---- LOAD and SAVE: the machine traps LOAD (and may trap SAVE) for its
; virtual drive; what reaches these finds no device ----
load_entry:
        stx MEMUSS
        sty MEMUSS+1
        jmp (I_LOAD)
load_default:
        sta VERCK
        lda #0
        sta STATUS
        lda #ERR_DEVICE_NOT_PRESENT
        sec
        rts
save_entry:
        stx EAL
        sty EAL+1
        tax
        lda 0,x
        sta STAL
        lda 1,x
        sta STAL+1
        jmp (I_SAVE)
save_default:
        lda #ERR_DEVICE_NOT_PRESENT
        sec
        rts

; ---- the clock: TIME (3 bytes, high first) counts jiffies, wraps at 24h ----
udtim:
        ldx #0
        inc TIME+2
        bne ut_check
        inc TIME+1
        bne ut_check
        inc TIME
ut_check:
        sec
        lda TIME+2
        sbc #$01
        lda TIME+1
        sbc #$1A
        lda TIME
        sbc #$4F
        bcc ut_stop
        stx TIME
        stx TIME+1
        stx TIME+2
ut_stop:
        jsr stop_scan
        sta STKEY
        rts
rdtim:
        sei
        lda TIME+2
        ldx TIME+1
        ldy TIME
settim:
        sei
        sta TIME+2
        stx TIME+1
        sty TIME
        cli
        rts

; ---- STOP: Z set when the STOP key is down (then the keyboard buffer is
; emptied and the channels reset, as on the originals) ----
stop:
        lda STKEY
        cmp #STOP_PRESSED
        bne sp_not
        php
        jsr clrchn_default
        lda #0
        sta NDX
        plp
sp_not:
        rts

; ---- RESTOR and VECTOR: the RAM vectors at RAM_VECTORS ----
restor:
        ldx #<default_vectors
        ldy #>default_vectors
        clc
vector:
        stx T1
        sty T1+1
        php
        sei
        ldy #VECTOR_BYTES-1
vc_loop:
        bcc vc_load
        lda RAM_VECTORS,y
        sta (T1),y
        jmp vc_next
vc_load:
        lda (T1),y
        sta RAM_VECTORS,y
vc_next:
        dey
        bpl vc_loop
        plp
        rts

; TXTTAB = MEMSTR + 1 with an empty program; the other BASIC pointers
; after it; the top of BASIC = MEMSIZ.
set_basic_pointers:
        lda MEMSTR
        sta T0
        lda MEMSTR+1
        sta T0+1
        lda #0
        tay
        sta (T0),y
        iny
        sta (T0),y
        iny
        sta (T0),y
        clc
        lda MEMSTR
        adc #1
        sta TXTTAB
        lda MEMSTR+1
        adc #0
        sta TXTTAB+1
        clc
        lda TXTTAB
        adc #2
        sta VARTAB
        sta ARYTAB
        sta STREND
        lda TXTTAB+1
        adc #0
        sta VARTAB+1
        sta ARYTAB+1
        sta STREND+1
        lda MEMSIZ
        sta FRETOP
        sta MEMSIZ_BASIC
        lda MEMSIZ+1
        sta FRETOP+1
        sta MEMSIZ_BASIC+1
        rts

sec_rts:
        sec
        rts
