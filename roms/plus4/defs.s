; roms/plus4/defs.s - the Plus/4's addresses for the boot ROM: the KERNAL
; variables programs rely on (the original KERNAL's locations), the TED,
; and the screen's shape. Assembled first (after common/zp.s), so zero-page
; names are known in the first pass. NTSC (0 or 1) comes from mh-asm -D.
COLS = 40
ROWS = 25
; KERNAL variables
STATUS = $90
STKEY = $91
VERCK = $93
LDTND = $97
DFLTN = $98
DFLTO = $99
MSGFLG = $9A
EAL = $9D
TIME = $A3
FNLEN = $AB
LA = $AC
SA = $AD
FA = $AE
FNADR = $AF
STAL = $B2
MEMUSS = $B4
RVS = $C2
LSTX = $C6
PNT = $C8
PNTR = $CA
TBLX = $CD
USER = $EA
NDX = $EF
CURBNK = $FB            ; the ROM bank the IRQ exit selects again
KEYD = $0527
MEMSTR = $0531
MEMSIZ = $0533
TIMOUT = $0535
COLOR = $053B
SHFLAG = $0543
HIBASE = $0F            ; the screen's page ($0C); the Plus/4 has no such variable
KS_BITS = $0252         ; keyboard scan scratch (IRQ only), after the input line
KS_IDX = $0253
KS_KEY = $0254
KS_SEL = $0255
KS_DELAY = $0256
RAM_VECTORS = $0314
CINV = $0314
CBINV = $0316
I_LOAD = $032E
I_SAVE = $0330
VECTOR_BYTES = 30
; BASIC's pointers (set for programs, there is no BASIC)
TXTTAB = $2B
VARTAB = $2D
ARYTAB = $2F
STREND = $31
FRETOP = $33
MEMSIZ_BASIC = $37
; chips
TED = $FF00
KEYPORT = $FD30         ; the keyboard's select lines (6529 latch)
BANK_SELECT = $FDD0     ; a write to $FDD0+n selects ROM bank n
ROM_ON = $FF3E
IO_BASE = $FD00
STOP_PRESSED = $7F      ; STKEY with the STOP key down
