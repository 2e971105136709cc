; roms/vic20/defs.s - the VIC-20's addresses for the boot ROM: the KERNAL
; variables programs rely on (the original KERNAL's locations), the chips,
; and the screen's shape. Assembled first (after common/zp.s), so zero-page
; names are known in the first pass. NTSC (0 or 1) comes from mh-asm -D.
COLS = 22
ROWS = 23
; KERNAL variables
STATUS = $90
STKEY = $91
VERCK = $93
LDTND = $98
DFLTN = $99
DFLTO = $9A
MSGFLG = $9D
TIME = $A0
EAL = $AE
FNLEN = $B7
LA = $B8
SA = $B9
FA = $BA
FNADR = $BB
STAL = $C1
MEMUSS = $C3
LSTX = $C5
BLNSW = $CC             ; 0: the cursor blinks
BLNCT = $CD             ; jiffies to the next blink
GDBLN = $CE             ; the screen code under the cursor
BLNON = $CF             ; 1: the cursor cell is reversed now
NDX = $C6
RVS = $C7
PNT = $D1
PNTR = $D3
TBLX = $D6
USER = $F3
KS_BITS = $F5           ; keyboard scan scratch (the original's KEYTAB)
KS_IDX = $F6
KS_KEY = $CB
KS_SEL = $F7
KS_DELAY = $028C        ; jiffies to the next repeat (the original's DELAY)
KEYD = $0277
MEMSTR = $0281
MEMSIZ = $0283
TIMOUT = $0285
COLOR = $0286
HIBASE = $0288
XMAX = $0289
SHFLAG = $028D
RAM_VECTORS = $0314
CINV = $0314
CBINV = $0316
NMINV = $0318
I_LOAD = $0330
I_SAVE = $0332
VECTOR_BYTES = 32
; BASIC's pointers (set for programs, there is no BASIC)
TXTTAB = $2B
VARTAB = $2D
ARYTAB = $2F
STREND = $31
FRETOP = $33
MEMSIZ_BASIC = $37
; chips
VIC = $9000
VIA1 = $9110
VIA2 = $9120
IO_BASE = VIA1
STOP_PRESSED = $FE      ; STKEY with the STOP key down (line 0 of select 3)
; VIA2 timer 1: one IRQ per jiffy, the originals' values
JIFFY_PAL = $4826
JIFFY_NTSC = $4289
JIFFY_LATCH = JIFFY_PAL*(1-NTSC) + JIFFY_NTSC*NTSC
; the VIC's screen origin for the model
VIC_X = 12*(1-NTSC) + 5*NTSC
VIC_Y = 38*(1-NTSC) + 25*NTSC
