; roms/vic20/begin.s - where the shared code (roms/common) goes in the
; VIC-20 boot ROM: after the IRQ handler's fixed exits at $EB12-$EB20.
        *= $EB21
