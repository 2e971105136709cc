; roms/plus4/begin.s - where the shared code (roms/common) goes in the
; Plus/4 boot ROM: after the character set's place at $D000-$D7FF.
        *= $D800
