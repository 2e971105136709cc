; tod.s - the CIA1 time-of-day clock and its alarm.
; Exit code 0 = pass, N = check N failed.
;
; TOD (50 Hz, CRA bit 7 = 1) is set to 1:00:00.0 AM, the alarm to
; 1:00:00.3. Writing tenths starts the clock and clears its prescaler, so
; tenths count on pulses 5, 10, 15 of the 50 Hz pin (P = 19704.96 cycles):
; the alarm comes exactly 10 pulses after tenths turn 1. A stopwatch starts
; when tenths turn 1: CIA2 timer A underflows first after 9853 cycles (half
; a pulse), then every 19705 (latch 19704), and timer B counts those
; underflows from $FFFF. At the alarm, 10 P = 197050 cycles later (give or
; take the polling loops' few cycles), it has counted exactly 10:
; underflows at 9853 + k * 19705 for k = 0..9, the next one half a period
; away.
;   1  no alarm within about 2 seconds   3  TOD tenths/seconds not 3/0 at the alarm
;   2  stopwatch not 10                  4  ICR alarm bit (2) not set
        *= $0801
        .word basic_end
        .word 10
        .byte $9E
        .text "2064"
        .byte 0
basic_end:
        .word 0

        *= $0810
start:  SEI
        LDA #$7F
        STA $DC0D
        STA $DD0D
        LDA #$80            ; TOD 50 Hz, timer A stopped
        STA $DC0E
        LDA #$80            ; CRB bit 7: writes set the alarm
        STA $DC0F
        LDA #$01
        STA $DC0B           ; alarm hours 1 AM
        LDA #0
        STA $DC0A
        STA $DC09
        LDA #3
        STA $DC08           ; alarm 1:00:00.3
        LDA #0
        STA $DC0F           ; writes set the time
        ; the stopwatch: CIA2 TA from 9852, TB counts its underflows
        LDA #<9852
        STA $DD04
        LDA #>9852
        STA $DD05
        LDA #$FF
        STA $DD06
        STA $DD07
        LDA #$41
        STA $DD0F
        LDA $DC0D
        LDA #$01
        STA $DC0B           ; hours: stops the clock
        LDA #0
        STA $DC0A
        STA $DC09
        STA $DC08           ; tenths: starts it
w1:     LDA $DC08           ; (live: no hours read latched it)
        BEQ w1              ; until tenths turn 1 (a stuck clock: --limit-cycles)
        LDA #$11
        STA $DD0E           ; force load 9852, start the stopwatch (continuous)
        LDA #<19704
        STA $DD04
        LDA #>19704
        STA $DD05           ; the latch of every later period
        LDX #0
        LDY #0
wait:   LDA $DC0D
        STA icr
        AND #$04
        BNE alarm
        DEX
        BNE wait
        DEY
        BNE wait
        LDA #1
        STA $D7FF
alarm:  LDA $DD06
        STA ticks
        LDA $DC0B           ; latch
        LDA $DC0A
        LDA $DC09
        STA secs
        LDA $DC08           ; unlatch
        STA tenths
        LDA #$FF
        SEC
        SBC ticks           ; elapsed ticks
        CMP #10
        BNE f2
        LDA tenths
        CMP #3
        BNE f3
        LDA secs
        BNE f3
        LDA icr
        AND #$04
        BEQ f4
        LDA #0
        STA $D7FF
f2:     LDA #2
        STA $D7FF
f3:     LDA #3
        STA $D7FF
f4:     LDA #4
        STA $D7FF

icr:    .byte 0
ticks:  .byte 0
secs:   .byte 0
tenths: .byte 0
