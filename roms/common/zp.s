; roms/common/zp.s - scratch locations of the boot ROMs, the same on both
; machines. They lie in BASIC's work area (there is no BASIC in these
; ROMs), never in the KERNAL variables that programs rely on.
T0 = $22                ; pointer (screen clear, scroll destination, RUN)
T2 = $24                ; pointer (scroll source, colour RAM)
T1 = $26                ; pointer (print_string)
T3 = $28                ; byte
T1_COUNT = $29          ; byte (scroll count)
LINE_LEN = $0B          ; characters in BUF, with the final CR once read
LINE_POS = $0C          ; next character CHRIN returns from BUF
NUM_DIGITS = $0E        ; digits parse_number read
NUM = $14               ; parsed number, the SYS address (2 bytes)
LD_DEVICE = $10         ; LOAD at the prompt: device, secondary address,
LD_SA = $11             ; the name's place in BUF and its length
LD_START = $12
LD_LEN = $13
BUF = $0200             ; the input line (as BASIC's input buffer)
LINE_MAX = 80
KEY_BUF_SIZE = 10       ; the keyboard buffer's length (XMAX's default)
CHROUT_ENTRY = $FFD2
