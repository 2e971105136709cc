/* op6502_grid.h - the NMOS 6502 opcode matrix as X-macros, the one source
 * of truth for the core's decode table, the disassembler and the assembler.
 *
 * MH_OP6502_MNEMONICS(X): X(name, kind, flow, seq) for every mnemonic, in the
 * order of mh_mn6502 (see disasm6502.h). kind says how the core executes
 * it: R reads an operand, W writes one, M reads-modifies-writes, I is an
 * implied-only operation, S a special sequence (stack, jumps, JAM).
 * flow is the control-flow class the debugger needs (NONE, BRANCH, JUMP,
 * CALL, RETURN, INTERRUPT, JAM). seq names the core's cycle sequence for
 * special instructions; MODE means "given by the addressing mode".
 *
 * MH_OP6502_GRID(E): E(mnemonic, mode, doc) for opcodes $00..$FF in order;
 * doc is D for the 151 documented opcodes and U for undocumented ones.
 * Internal header: not installed.
 */
#ifndef MH_OP6502_GRID_H
#define MH_OP6502_GRID_H

#define MH_OP6502_MNEMONICS(X)                                                                  \
    X(ADC, R, NONE, MODE) X(AND, R, NONE, MODE) X(ASL, M, NONE, MODE) X(BCC, S, BRANCH, BR)     \
    X(BCS, S, BRANCH, BR) X(BEQ, S, BRANCH, BR) X(BIT, R, NONE, MODE) X(BMI, S, BRANCH, BR)     \
    X(BNE, S, BRANCH, BR) X(BPL, S, BRANCH, BR) X(BRK, S, INTERRUPT, BRK) X(BVC, S, BRANCH, BR) \
    X(BVS, S, BRANCH, BR) X(CLC, I, NONE, MODE) X(CLD, I, NONE, MODE) X(CLI, I, NONE, MODE)     \
    X(CLV, I, NONE, MODE) X(CMP, R, NONE, MODE) X(CPX, R, NONE, MODE) X(CPY, R, NONE, MODE)     \
    X(DEC, M, NONE, MODE) X(DEX, I, NONE, MODE) X(DEY, I, NONE, MODE) X(EOR, R, NONE, MODE)     \
    X(INC, M, NONE, MODE) X(INX, I, NONE, MODE) X(INY, I, NONE, MODE) X(JMP, S, JUMP, JMP)      \
    X(JSR, S, CALL, JSR) X(LDA, R, NONE, MODE) X(LDX, R, NONE, MODE) X(LDY, R, NONE, MODE)      \
    X(LSR, M, NONE, MODE) X(NOP, R, NONE, MODE) X(ORA, R, NONE, MODE) X(PHA, S, NONE, PUSH)     \
    X(PHP, S, NONE, PUSH) X(PLA, S, NONE, PULL) X(PLP, S, NONE, PULL) X(ROL, M, NONE, MODE)     \
    X(ROR, M, NONE, MODE) X(RTI, S, RETURN, RTI) X(RTS, S, RETURN, RTS) X(SBC, R, NONE, MODE)   \
    X(SEC, I, NONE, MODE) X(SED, I, NONE, MODE) X(SEI, I, NONE, MODE) X(STA, W, NONE, MODE)     \
    X(STX, W, NONE, MODE) X(STY, W, NONE, MODE) X(TAX, I, NONE, MODE) X(TAY, I, NONE, MODE)     \
    X(TSX, I, NONE, MODE) X(TXA, I, NONE, MODE) X(TXS, I, NONE, MODE) X(TYA, I, NONE, MODE)     \
    X(SLO, M, NONE, MODE) X(RLA, M, NONE, MODE) X(SRE, M, NONE, MODE) X(RRA, M, NONE, MODE)     \
    X(SAX, W, NONE, MODE) X(LAX, R, NONE, MODE) X(DCP, M, NONE, MODE) X(ISC, M, NONE, MODE)     \
    X(ANC, R, NONE, MODE) X(ALR, R, NONE, MODE) X(ARR, R, NONE, MODE) X(SBX, R, NONE, MODE)     \
    X(LAS, R, NONE, MODE) X(SHA, W, NONE, MODE) X(SHX, W, NONE, MODE) X(SHY, W, NONE, MODE)     \
    X(TAS, W, NONE, MODE) X(ANE, R, NONE, MODE) X(LXA, R, NONE, MODE) X(JAM, S, JAM, JAM)

/* One row per high nibble; columns $x0..$xF. */
#define MH_OP6502_GRID(E)                                                              \
    E(BRK,IMP,D) E(ORA,IZX,D) E(JAM,IMP,U) E(SLO,IZX,U) E(NOP,ZP,U)  E(ORA,ZP,D)       \
    E(ASL,ZP,D)  E(SLO,ZP,U)  E(PHP,IMP,D) E(ORA,IMM,D) E(ASL,ACC,D) E(ANC,IMM,U)      \
    E(NOP,ABS,U) E(ORA,ABS,D) E(ASL,ABS,D) E(SLO,ABS,U)                                \
    E(BPL,REL,D) E(ORA,IZY,D) E(JAM,IMP,U) E(SLO,IZY,U) E(NOP,ZPX,U) E(ORA,ZPX,D)      \
    E(ASL,ZPX,D) E(SLO,ZPX,U) E(CLC,IMP,D) E(ORA,ABSY,D) E(NOP,IMP,U) E(SLO,ABSY,U)    \
    E(NOP,ABSX,U) E(ORA,ABSX,D) E(ASL,ABSX,D) E(SLO,ABSX,U)                            \
    E(JSR,ABS,D) E(AND,IZX,D) E(JAM,IMP,U) E(RLA,IZX,U) E(BIT,ZP,D)  E(AND,ZP,D)       \
    E(ROL,ZP,D)  E(RLA,ZP,U)  E(PLP,IMP,D) E(AND,IMM,D) E(ROL,ACC,D) E(ANC,IMM,U)      \
    E(BIT,ABS,D) E(AND,ABS,D) E(ROL,ABS,D) E(RLA,ABS,U)                                \
    E(BMI,REL,D) E(AND,IZY,D) E(JAM,IMP,U) E(RLA,IZY,U) E(NOP,ZPX,U) E(AND,ZPX,D)      \
    E(ROL,ZPX,D) E(RLA,ZPX,U) E(SEC,IMP,D) E(AND,ABSY,D) E(NOP,IMP,U) E(RLA,ABSY,U)    \
    E(NOP,ABSX,U) E(AND,ABSX,D) E(ROL,ABSX,D) E(RLA,ABSX,U)                            \
    E(RTI,IMP,D) E(EOR,IZX,D) E(JAM,IMP,U) E(SRE,IZX,U) E(NOP,ZP,U)  E(EOR,ZP,D)       \
    E(LSR,ZP,D)  E(SRE,ZP,U)  E(PHA,IMP,D) E(EOR,IMM,D) E(LSR,ACC,D) E(ALR,IMM,U)      \
    E(JMP,ABS,D) E(EOR,ABS,D) E(LSR,ABS,D) E(SRE,ABS,U)                                \
    E(BVC,REL,D) E(EOR,IZY,D) E(JAM,IMP,U) E(SRE,IZY,U) E(NOP,ZPX,U) E(EOR,ZPX,D)      \
    E(LSR,ZPX,D) E(SRE,ZPX,U) E(CLI,IMP,D) E(EOR,ABSY,D) E(NOP,IMP,U) E(SRE,ABSY,U)    \
    E(NOP,ABSX,U) E(EOR,ABSX,D) E(LSR,ABSX,D) E(SRE,ABSX,U)                            \
    E(RTS,IMP,D) E(ADC,IZX,D) E(JAM,IMP,U) E(RRA,IZX,U) E(NOP,ZP,U)  E(ADC,ZP,D)       \
    E(ROR,ZP,D)  E(RRA,ZP,U)  E(PLA,IMP,D) E(ADC,IMM,D) E(ROR,ACC,D) E(ARR,IMM,U)      \
    E(JMP,IND,D) E(ADC,ABS,D) E(ROR,ABS,D) E(RRA,ABS,U)                                \
    E(BVS,REL,D) E(ADC,IZY,D) E(JAM,IMP,U) E(RRA,IZY,U) E(NOP,ZPX,U) E(ADC,ZPX,D)      \
    E(ROR,ZPX,D) E(RRA,ZPX,U) E(SEI,IMP,D) E(ADC,ABSY,D) E(NOP,IMP,U) E(RRA,ABSY,U)    \
    E(NOP,ABSX,U) E(ADC,ABSX,D) E(ROR,ABSX,D) E(RRA,ABSX,U)                            \
    E(NOP,IMM,U) E(STA,IZX,D) E(NOP,IMM,U) E(SAX,IZX,U) E(STY,ZP,D)  E(STA,ZP,D)       \
    E(STX,ZP,D)  E(SAX,ZP,U)  E(DEY,IMP,D) E(NOP,IMM,U) E(TXA,IMP,D) E(ANE,IMM,U)      \
    E(STY,ABS,D) E(STA,ABS,D) E(STX,ABS,D) E(SAX,ABS,U)                                \
    E(BCC,REL,D) E(STA,IZY,D) E(JAM,IMP,U) E(SHA,IZY,U) E(STY,ZPX,D) E(STA,ZPX,D)      \
    E(STX,ZPY,D) E(SAX,ZPY,U) E(TYA,IMP,D) E(STA,ABSY,D) E(TXS,IMP,D) E(TAS,ABSY,U)    \
    E(SHY,ABSX,U) E(STA,ABSX,D) E(SHX,ABSY,U) E(SHA,ABSY,U)                            \
    E(LDY,IMM,D) E(LDA,IZX,D) E(LDX,IMM,D) E(LAX,IZX,U) E(LDY,ZP,D)  E(LDA,ZP,D)       \
    E(LDX,ZP,D)  E(LAX,ZP,U)  E(TAY,IMP,D) E(LDA,IMM,D) E(TAX,IMP,D) E(LXA,IMM,U)      \
    E(LDY,ABS,D) E(LDA,ABS,D) E(LDX,ABS,D) E(LAX,ABS,U)                                \
    E(BCS,REL,D) E(LDA,IZY,D) E(JAM,IMP,U) E(LAX,IZY,U) E(LDY,ZPX,D) E(LDA,ZPX,D)      \
    E(LDX,ZPY,D) E(LAX,ZPY,U) E(CLV,IMP,D) E(LDA,ABSY,D) E(TSX,IMP,D) E(LAS,ABSY,U)    \
    E(LDY,ABSX,D) E(LDA,ABSX,D) E(LDX,ABSY,D) E(LAX,ABSY,U)                            \
    E(CPY,IMM,D) E(CMP,IZX,D) E(NOP,IMM,U) E(DCP,IZX,U) E(CPY,ZP,D)  E(CMP,ZP,D)       \
    E(DEC,ZP,D)  E(DCP,ZP,U)  E(INY,IMP,D) E(CMP,IMM,D) E(DEX,IMP,D) E(SBX,IMM,U)      \
    E(CPY,ABS,D) E(CMP,ABS,D) E(DEC,ABS,D) E(DCP,ABS,U)                                \
    E(BNE,REL,D) E(CMP,IZY,D) E(JAM,IMP,U) E(DCP,IZY,U) E(NOP,ZPX,U) E(CMP,ZPX,D)      \
    E(DEC,ZPX,D) E(DCP,ZPX,U) E(CLD,IMP,D) E(CMP,ABSY,D) E(NOP,IMP,U) E(DCP,ABSY,U)    \
    E(NOP,ABSX,U) E(CMP,ABSX,D) E(DEC,ABSX,D) E(DCP,ABSX,U)                            \
    E(CPX,IMM,D) E(SBC,IZX,D) E(NOP,IMM,U) E(ISC,IZX,U) E(CPX,ZP,D)  E(SBC,ZP,D)       \
    E(INC,ZP,D)  E(ISC,ZP,U)  E(INX,IMP,D) E(SBC,IMM,D) E(NOP,IMP,D) E(SBC,IMM,U)      \
    E(CPX,ABS,D) E(SBC,ABS,D) E(INC,ABS,D) E(ISC,ABS,U)                                \
    E(BEQ,REL,D) E(SBC,IZY,D) E(JAM,IMP,U) E(ISC,IZY,U) E(NOP,ZPX,U) E(SBC,ZPX,D)      \
    E(INC,ZPX,D) E(ISC,ZPX,U) E(SED,IMP,D) E(SBC,ABSY,D) E(NOP,IMP,U) E(ISC,ABSY,U)    \
    E(NOP,ABSX,U) E(SBC,ABSX,D) E(INC,ABSX,D) E(ISC,ABSX,U)

#endif
