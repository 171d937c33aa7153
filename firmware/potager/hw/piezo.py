"""The optional piezo: short beeps for the timer's warnings, without blocking the loop."""

import pwmio

HALF = 0x8000  # 50 % duty: the loudest square wave


class Piezo:
    def __init__(self, pin):
        self.pwm = pwmio.PWMOut(pin, frequency=2000, duty_cycle=0, variable_frequency=True)

    def start(self, frequency):
        self.pwm.frequency = frequency
        self.pwm.duty_cycle = HALF

    def stop(self):
        self.pwm.duty_cycle = 0
