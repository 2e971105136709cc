/* bench_sieve.h - the CPU-bound 6502 workload every bench runs: the sieve of
 * Eratosthenes over 8192 flags at $4000-$5FFF, then a count of the primes
 * (1028) into $F0/$F1; the pass counter is at $F2/$F3. Assembler source
 * for the SDK assembler, in two parts so a bench can put its own symbols
 * between them and its own ending after them. */
#ifndef MH_BENCH_SIEVE_H
#define MH_BENCH_SIEVE_H

#define BENCH_SIEVE_SYMBOLS \
    "flags = $4000          ; 8192 flags at $4000-$5FFF\n" \
    "ptr   = $FB\n" \
    "ptr2  = $FD\n" \
    "i     = $F7\n" \
    "count = $F9\n" \
    "result = $F0\n" \
    "passes = $F2\n"

#define BENCH_SIEVE_CODE \
    "        *= $0800\n" \
    "start:  LDA #>flags\n" \
    "        STA ptr+1\n" \
    "        LDY #0\n" \
    "        STY ptr\n" \
    "        LDA #1\n" \
    "        LDX #$20\n" \
    "fill:   STA (ptr),Y\n" \
    "        INY\n" \
    "        BNE fill\n" \
    "        INC ptr+1\n" \
    "        DEX\n" \
    "        BNE fill\n" \
    "        LDA #2\n" \
    "        STA i\n" \
    "        LDA #0\n" \
    "        STA i+1\n" \
    "outer:  LDA i\n" \
    "        STA ptr\n" \
    "        CLC\n" \
    "        LDA i+1\n" \
    "        ADC #>flags\n" \
    "        STA ptr+1\n" \
    "        LDY #0\n" \
    "        LDA (ptr),Y\n" \
    "        BEQ next\n" \
    "        CLC\n" \
    "        LDA i\n" \
    "        ADC i\n" \
    "        STA ptr2\n" \
    "        LDA i+1\n" \
    "        ADC i+1\n" \
    "        ADC #>flags\n" \
    "        STA ptr2+1\n" \
    "inner:  LDA ptr2+1\n" \
    "        CMP #$60\n" \
    "        BCS next\n" \
    "        LDA #0\n" \
    "        STA (ptr2),Y\n" \
    "        CLC\n" \
    "        LDA ptr2\n" \
    "        ADC i\n" \
    "        STA ptr2\n" \
    "        LDA ptr2+1\n" \
    "        ADC i+1\n" \
    "        STA ptr2+1\n" \
    "        JMP inner\n" \
    "next:   INC i\n" \
    "        BNE check\n" \
    "        INC i+1\n" \
    "check:  LDA i+1\n" \
    "        CMP #$10\n" \
    "        BCC outer\n" \
    "        LDA #0\n" \
    "        STA count\n" \
    "        STA count+1\n" \
    "        LDA #>flags\n" \
    "        STA ptr+1\n" \
    "        LDY #0\n" \
    "        STY ptr\n" \
    "        LDX #$20\n" \
    "cnt:    LDA (ptr),Y\n" \
    "        BEQ skip\n" \
    "        INC count\n" \
    "        BNE skip\n" \
    "        INC count+1\n" \
    "skip:   INY\n" \
    "        BNE cnt\n" \
    "        INC ptr+1\n" \
    "        DEX\n" \
    "        BNE cnt\n" \
    "        LDA count\n" \
    "        STA result\n" \
    "        LDA count+1\n" \
    "        STA result+1\n" \
    "        INC passes\n"

#endif
