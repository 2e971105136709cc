// A KickAssembler source; kickass.sym and kickass.dbg beside it are what
// KickAssembler's -symbolfile and -debugdump write for it (its documented
// formats), checked in because KickAssembler needs Java and is not in Debian.
*=$c000
start:  ldx #0
fill_screen: lda #1
        sta $0400,x
        inx
        bne fill_screen
.namespace music {
play:   rts
}
