; roms/vic20/begin.s - where the shared code (roms/common) goes in the
; VIC-20 boot ROM: after the VIC's register table at $EDE4-$EDF3 (the
; original's place, which programs read to set the VIC up again).
        *= $EDF4
