// The emulated Pico and MacroPad RP2040: the real CircuitPython UF2 in rp2040js, driven by a
// plan of timed inputs.
//
// node emulator.mjs PLAN.json     (the plan is written by host_tools/pico/board.py)
//
// What the board around the RP2040 is made of here:
// - a 2 MiB QSPI flash that keeps what is written: the bootrom's range erase ('RE') and range
//   program ('RP') are caught at their entry (a BKPT patched over them), done on the flash
//   array with the chip's busy time, and can be cut by a power cut or a torn write;
// - pull-ups on the plan's pins (the keys; the MacroPad's encoder A and B too): a pressed key
//   or a closed encoder contact pulls its pin low; the QSPI CS pad pulled up (BOOTSEL not held);
// - the Pico (plan.display "i2c"): an SSD1306 at 0x3C that ACKs on the I2C block (its bytes are
//   recorded) and at pin level (busio.I2C probes the address with a bit-banged zero-length
//   write), with pull-ups on GP4/GP5;
// - the MacroPad (plan.display "spi"): the SH1106 on SPI1; each byte takes its bus time (a clock
//   alarm at the SSP's bit rate completes it: the DMA of busio.SPI needs it) and is recorded
//   with the levels of DC and CS;
// - the NeoPixels: the words the CPU or DMA push into a PIO TX FIFO are recorded; the PIO
//   is stepped from the CPU loop, in virtual time, each state machine at its clock divider;
// - a USB host with a CDC serial console (recorded; Ctrl-C then Ctrl-D is a soft reload).
// Virtual time = executed cycles x 8 ns (clk_sys 125 MHz); idle waits jump to the next alarm.
//
// Output: one JSON object a line (t in microseconds), see board.py for the reader.
import { openSync, readFileSync, writeFileSync, writeSync, closeSync } from 'node:fs';
import { RP2040, USBCDC, StateMachine, RPPIO, I2CMode, BasePeripheral } from './node_modules/rp2040js/dist/esm/index.js';
import { SimulationClock } from './node_modules/rp2040js/dist/esm/clock/simulation-clock.js';

const plan = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const out = openSync(plan.events_out, 'w');
let outBuffer = [];
function emit(record) {
  outBuffer.push(JSON.stringify(record));
  if (outBuffer.length >= 256) flushOut();
}
function flushOut() {
  if (outBuffer.length) writeSync(out, outBuffer.join('\n') + '\n');
  outBuffer = [];
}

const FLASH_SIZE = 2 * 1024 * 1024;
const NVM_OFFSET = 0x0ff000;
const NVM_SIZE = 4096;
const SECTOR = 4096;
const ERASE_NS = 45e6; // sector erase, typical for a W25Q16 (datasheet tSE)
const PAGE_NS = 0.4e6; // page program (256 B), typical (tPP)
const CYCLE_NS = 8;
const SDA = 4;
const SCL = 5;
const OLED_ADDRESS = 0x3c;
const DISPLAY = plan.display || 'i2c'; // 'i2c': SSD1306 on GP4/GP5; 'spi': SH1106 on SPI1
const SPI_DISPLAY = plan.spi_display || { spi: 1, dc: 24, cs: 22 };
const SPI_GAP_NS = 20000; // bytes further apart than this start a new record

// --- the flash chip: survives power cycles ---
const flash = new Uint8Array(FLASH_SIZE).fill(0xff);
for (const [offset, data] of loadUf2(readFileSync(plan.uf2))) flash.set(data, offset);
flash.set(readFileSync(plan.drive_image), 0x100000);
if (plan.nvm) flash.set(readFileSync(plan.nvm), NVM_OFFSET);
const bootromBytes = readFileSync(plan.bootrom);
const flashStats = { nvm_erases: 0, nvm_programs: 0, drive_erases: 0, drive_programs: 0 };

function loadUf2(data) {
  const blocks = [];
  for (let i = 0; i + 512 <= data.length; i += 512) {
    const view = new DataView(data.buffer, data.byteOffset + i, 512);
    if (view.getUint32(0, true) !== 0x0a324655 || view.getUint32(4, true) !== 0x9e5d5157) continue;
    const target = view.getUint32(12, true);
    const size = view.getUint32(16, true);
    if (target < 0x10000000 || target >= 0x10000000 + FLASH_SIZE) continue;
    blocks.push([target - 0x10000000, data.subarray(i + 32, i + 32 + size)]);
  }
  return blocks;
}

// --- the plan: inputs at virtual times (microseconds) ---
const inputs = plan.inputs.slice().sort((a, b) => a.t - b.t);
let nextInput = 0;
const endNs = plan.end_us * 1000;
const settleNs = plan.settle_us * 1000;
const maxNs = plan.max_us * 1000;
let tearAfter = null; // bytes of the next NVM program to land before the power goes
const pinsLow = new Set(); // pulled-up pins held low (a key down, an encoder contact closed)

// PIO steps from the CPU loop, not from wall-clock timers, each state machine at its clock:
// one instruction every CLKDIV (INT + FRAC/256, INT 0 = 65536) system clock cycles.
RPPIO.prototype.run = function run() {};
StateMachine.prototype.divAccumulator = 0; // in 1/256 of a cycle
const clkDivRestart = StateMachine.prototype.clkDivRestart;
StateMachine.prototype.clkDivRestart = function restart() {
  this.divAccumulator = 0;
  return clkDivRestart.call(this);
};
// Returns the cycles until the next step of an enabled machine: the CPU loop calls again only
// then (a machine enabled meanwhile gets the cycles since that call at its first one).
function stepPio(pio, cycles) {
  const machines = pio.machines;
  let due = Infinity;
  for (let i = 0; i < 4; i++) {
    const machine = machines[i];
    if (!machine.enabled) continue;
    const divider = (machine.clockDivInt || 65536) * 256 + machine.clockDivFrac;
    let acc = machine.divAccumulator + cycles * 256;
    while (acc >= divider) {
      acc -= divider;
      machine.step();
      pio.checkChangedPins();
    }
    machine.divAccumulator = acc;
    due = Math.min(due, Math.ceil((divider - acc) / 256));
  }
  return due === Infinity ? 1 : due;
}
const pioPending = [0, 0]; // cycles run since each PIO block was last stepped
const pioDue = [0, 0]; // cycles from that step to the next one due
function runPio(pio, n, cycles) {
  const pending = pioPending[n] + cycles;
  if (pending < pioDue[n]) {
    pioPending[n] = pending;
  } else {
    pioPending[n] = 0;
    pioDue[n] = stepPio(pio, pending);
  }
}
// a CPU write to a machine's registers (CTRL: enable, CLKDIV) takes effect at the next cycle
const pioWriteRegister = RPPIO.prototype.writeUint32;
RPPIO.prototype.writeUint32 = function writeUint32(offset, value) {
  const n = this === currentMcu?.pio[1] ? 1 : 0;
  if (pioPending[n]) stepPio(this, pioPending[n]);
  pioPending[n] = 0;
  pioDue[n] = 0;
  return pioWriteRegister.call(this, offset, value);
};

let currentMcu = null;
const pioWrite = StateMachine.prototype.writeFIFO;
StateMachine.prototype.writeFIFO = function writeFIFO(value) {
  if (currentMcu) pioWords.push(value >>> 0);
  pioLastNs = currentMcu ? currentMcu.clock.nanos : 0;
  return pioWrite.call(this, value);
};
let pioWords = [];
let pioLastNs = 0;

let mcu = null;
let clock = null;
let cdc = null;
let cdcRead = -1; // the size of the OUT read the device has armed, -1: none

// Bytes to the console (Ctrl-C, Ctrl-D): given to the read the device has armed, or kept
// for the next one.
function sendConsole(byte) {
  if (byte !== undefined) cdc.txFIFO.push(byte);
  if (cdcRead < 0 || cdc.txFIFO.empty) return;
  const buffer = new Uint8Array(Math.min(cdcRead, cdc.txFIFO.itemCount));
  for (let i = 0; i < buffer.length; i++) buffer[i] = cdc.txFIFO.pull();
  cdcRead = -1;
  mcu.usbCtrl.endpointReadDone(cdc.outEndpoint, buffer);
}
let powered = false;
let bootCount = 0;
let consoleText = '';
let reloadState = null; // null | 'interrupting' (Ctrl-C sent, waiting for the prompt)
let lastI2cNs = 0; // the display's last byte (I2C or SPI)
let spiAlarm = null;
let spiRecord = null; // {t, endNs, dc, cs, bytes}
let cutNow = false;
let busyNs = 0; // time the CPU executed (not waiting) in the current window

function nowUs() {
  return Math.round(clock.nanos / 1000);
}

function romFunction(code) {
  const rom = bootromBytes;
  let table = rom.readUInt16LE(0x14);
  for (;;) {
    const entry = rom.readUInt16LE(table);
    if (entry === 0) return null;
    if (entry === code) return rom.readUInt16LE(table + 2);
    table += 4;
  }
}
const RE = romFunction('R'.charCodeAt(0) | ('E'.charCodeAt(0) << 8));
const RP = romFunction('R'.charCodeAt(0) | ('P'.charCodeAt(0) << 8));
const BKPT_ERASE = 0xbe40;
const BKPT_PROGRAM = 0xbe41;

class RegisterFile extends BasePeripheral {
  constructor(rp2040, name) {
    super(rp2040, name);
    this.values = new Map();
  }
  readUint32(offset) {
    return this.values.get(offset) || 0;
  }
  writeUint32(offset, value) {
    this.values.set(offset, value >>> 0);
  }
}

function powerOn() {
  clock = clock || new SimulationClock();
  mcu = new RP2040(clock);
  currentMcu = mcu;
  pioPending.fill(0);
  pioDue.fill(0);
  mcu.loadBootrom(new Uint32Array(bootromBytes.buffer, bootromBytes.byteOffset, 4096));
  const rom16 = new Uint16Array(mcu.bootrom.buffer);
  rom16[(RE & ~1) >> 1] = BKPT_ERASE;
  rom16[(RP & ~1) >> 1] = BKPT_PROGRAM;
  mcu.logger = { debug() {}, info() {}, warn() {}, error() {} };
  // VREG_AND_CHIP_RESET: plain registers reading 0 at power-on (unimplemented, they read
  // all ones, and the bootrom takes CHIP_RESET's rescue flag for set and halts)
  mcu.peripherals[0x40064] = new RegisterFile(mcu, 'VREG_AND_CHIP_RESET');
  mcu.reset();
  mcu.flash.set(flash); // reset() fills the flash with 0xFF: load ours after it
  // the bootrom cannot read boot2 through the emulated SSI: start at boot2 as it would
  mcu.core.PC = 0x10000000;
  mcu.onBreak = onBreak;
  // pads: pull-ups on the keys (and the I2C lines); QSPI CS high (BOOTSEL not held)
  for (const pin of plan.pull_ups || plan.key_pins) mcu.gpio[pin].setInputValue(!pinsLow.has(pin));
  mcu.qspi[1].padValue |= 0x48; // input enable, pull-up
  mcu.qspi[1].setInputValue(true);
  if (DISPLAY === 'i2c') {
    mcu.gpio[SDA].setInputValue(true);
    mcu.gpio[SCL].setInputValue(true);
    attachI2c(mcu.i2c[0]);
    attachI2c(mcu.i2c[1]);
    attachBlockResets(mcu);
    attachBitBangProbe();
  } else {
    attachSpiDisplay(mcu.spi[SPI_DISPLAY.spi]);
  }
  cdc = new USBCDC(mcu.usbCtrl);
  // A host sends on the bulk OUT endpoint only what it has to send. rp2040js's CDC answered
  // each read the device armed at once, with an empty packet when it had nothing: a storm of
  // USB interrupts that kept the emulated CPU ~86% busy in TinyUSB while the firmware idled
  // (PC samples), which a board on a real host never sees. A read now waits for a byte.
  cdcRead = -1;
  mcu.usbCtrl.onEndpointRead = (endpoint, size) => {
    if (endpoint !== cdc.outEndpoint) return;
    cdcRead = size;
    sendConsole();
  };
  cdc.onSerialData = (buffer) => {
    const text = Buffer.from(buffer).toString('latin1');
    emit({ t: nowUs(), console: text });
    consoleText = (consoleText + text).slice(-400);
    if (reloadState === 'interrupting' && /Press any key|CTRL-D to reload/.test(consoleText)) {
      sendConsole(0x04);
      reloadState = null;
      emit({ t: nowUs(), event: 'ctrl-d' });
    }
  };
  pioWords = [];
  powered = true;
  bootCount += 1;
  consoleText = '';
  emit({ t: nowUs(), event: 'power-on' });
}

function powerOff(why) {
  if (!powered) return;
  flushSpi();
  if (spiAlarm) spiAlarm.cancel();
  spiAlarm = null;
  flash.set(mcu.flash.subarray(0, FLASH_SIZE));
  powered = false;
  currentMcu = null;
  mcu = null;
  emit({ t: nowUs(), event: 'power-off', why });
}

// --- flash: the bootrom's range erase and range program ---
function onBreak(code) {
  const core = mcu.core;
  const returnTo = core.registers[14] & ~1;
  const start = clock.nanos;
  const cut = nextCutNs();
  if (code === (BKPT_ERASE & 0xff)) {
    const offset = core.registers[0];
    const count = core.registers[1];
    const sectors = Math.ceil(count / SECTOR);
    const busy = sectors * ERASE_NS;
    // an erase cut short reads 0xFF where it reached (bytes already erased stay erased)
    const done = cut !== null && cut < start + busy ? Math.ceil(((cut - start) / busy) * sectors) : sectors;
    mcu.flash.fill(0xff, offset, Math.min(offset + done * SECTOR, FLASH_SIZE));
    countFlash(offset, 'erases', done);
    emit({ t: nowUs(), flash: 'erase', offset, count, done: done * SECTOR });
    advance(cut !== null && cut < start + busy ? cut - start : busy);
    if (cut !== null && cut < start + busy) cutNow = true;
  } else if (code === (BKPT_PROGRAM & 0xff)) {
    const offset = core.registers[0];
    const data = core.registers[1];
    const count = core.registers[2];
    const busy = Math.ceil(count / 256) * PAGE_NS;
    let landed = count;
    if (cut !== null && cut < start + busy) landed = Math.floor(((cut - start) / busy) * count);
    const nvm = offset >= NVM_OFFSET && offset < NVM_OFFSET + NVM_SIZE;
    if (nvm && tearAfter !== null) {
      landed = Math.min(landed, tearAfter);
      tearAfter = null;
      cutNow = true;
    }
    for (let i = 0; i < landed; i++) {
      // programming only clears bits
      mcu.flash[offset + i] &= mcu.sram[data - 0x20000000 + i];
    }
    countFlash(offset, 'programs', 1);
    emit({ t: nowUs(), flash: 'program', offset, count, landed });
    const took = landed < count ? (landed / count) * busy : busy;
    advance(took);
    if (landed < count) cutNow = true;
  } else {
    emit({ t: nowUs(), event: 'bkpt', code });
    return;
  }
  core.PC = returnTo;
}

function countFlash(offset, what, n) {
  const where = offset >= NVM_OFFSET && offset < NVM_OFFSET + NVM_SIZE ? 'nvm' : 'drive';
  flashStats[`${where}_${what}`] += n;
}

function advance(ns) {
  // the CPU waits on the flash's busy bit: time passes, the alarms fire (interrupts are off)
  clock.tick(ns);
}

function nextCutNs() {
  for (let i = nextInput; i < inputs.length; i++) {
    if (inputs[i].kind === 'cut' || inputs[i].kind === 'boot') return inputs[i].t * 1000;
  }
  return null;
}

// --- I2C: the OLED on the hardware block ---
let transfer = null;
function attachI2c(i2c) {
  i2c.onStart = () => i2c.completeStart();
  i2c.onConnect = (address, mode) => {
    const ack = address === OLED_ADDRESS && mode === I2CMode.Write;
    if (ack) transfer = { t: nowUs(), bytes: [] };
    i2c.completeConnect(ack);
  };
  i2c.onWriteByte = (value) => {
    if (transfer) transfer.bytes.push(value);
    i2c.completeWrite(transfer !== null);
  };
  i2c.onReadByte = () => i2c.completeRead(0x43); // status: display on
  i2c.onStop = () => {
    if (transfer) {
      lastI2cNs = clock.nanos;
      emit({ t: transfer.t, end: nowUs(), i2c: Buffer.from(transfer.bytes).toString('hex') });
    }
    transfer = null;
    i2c.completeStop();
  };
}

// --- SPI: the MacroPad's SH1106, with bus time ---
// rp2040js completes a byte at once; busio.SPI's two DMA channels then overrun the RX FIFO and
// the firmware waits forever. Each byte ends after its bits at the SSP's clock instead.
function attachSpiDisplay(spi) {
  const dc = mcu.gpio[SPI_DISPLAY.dc];
  const cs = mcu.gpio[SPI_DISPLAY.cs];
  spiAlarm = clock.createAlarm(() => spi.completeTransmit(0));
  spi.onTransmit = (value) => {
    const frequency = spi.clockFrequency || 1e6;
    recordSpi(value, dc.outputValue ? 1 : 0, cs.outputValue ? 1 : 0);
    spiAlarm.schedule((spi.dataBits * 1e9) / frequency);
  };
}

function recordSpi(value, dcLevel, csLevel) {
  const now = clock.nanos;
  const r = spiRecord;
  if (r && (r.dc !== dcLevel || r.cs !== csLevel || now - r.endNs > SPI_GAP_NS)) flushSpi();
  if (!spiRecord) spiRecord = { t: nowUs(), endNs: now, dc: dcLevel, cs: csLevel, bytes: [] };
  spiRecord.bytes.push(value);
  spiRecord.endNs = now;
  lastI2cNs = now;
}

function flushSpi() {
  const r = spiRecord;
  if (!r) return;
  spiRecord = null;
  emit({ t: r.t, end: Math.round(r.endNs / 1000), spi: Buffer.from(r.bytes).toString('hex'), dc: r.dc, cs: r.cs });
}

// --- I2C at pin level: enough of a target to ACK its address to a bit-banged probe ---
// RESETS: on the chip, holding a block in reset puts its registers back to their reset values
// (the SDK's i2c_deinit is such a reset); rp2040js keeps them, so an I2C that CircuitPython
// deinitialised still reads enabled and the next busio.I2C says "I2C peripheral in use".
const RESET_I2C = [1 << 3, 1 << 4];
function attachBlockResets(rp) {
  const resets = rp.peripherals[0x4000c];
  const write = resets.writeUint32.bind(resets);
  resets.writeUint32 = (offset, value) => {
    if (offset === 0) {
      RESET_I2C.forEach((bit, n) => {
        if (value & bit && !(resets.reset & bit)) rp.i2c[n].enable = 0;
      });
    }
    write(offset, value);
  };
}

function attachBitBangProbe() {
  const sda = mcu.gpio[SDA];
  const scl = mcu.gpio[SCL];
  const probe = { sda: true, scl: true, bits: 0, count: -1, acking: false };
  const drivenLow = (pin) => pin.functionSelect === 5 && pin.outputEnable && !pin.outputValue;
  const update = () => {
    const sclLevel = !drivenLow(scl);
    let sdaLevel = !drivenLow(sda) && !probe.acking;
    if (sclLevel && probe.scl && probe.sda !== sdaLevel) {
      // SDA moving while SCL is high: a start (falling) or a stop (rising)
      probe.count = sdaLevel ? -1 : 0;
      probe.bits = 0;
    } else if (sclLevel && !probe.scl && probe.count >= 0 && probe.count < 8) {
      probe.bits = (probe.bits << 1) | (sdaLevel ? 1 : 0);
      probe.count += 1;
    } else if (!sclLevel && probe.scl && probe.count === 8 && !probe.acking) {
      if (probe.bits >> 1 === OLED_ADDRESS) probe.acking = true;
      else probe.count = -1;
    } else if (!sclLevel && probe.scl && probe.acking && probe.count === 9) {
      probe.acking = false;
      probe.count = -1;
    } else if (sclLevel && !probe.scl && probe.acking) {
      probe.count = 9; // the ACK clock
    }
    sdaLevel = !drivenLow(sda) && !probe.acking;
    probe.scl = sclLevel;
    probe.sda = sdaLevel;
    sda.setInputValue(sdaLevel);
    scl.setInputValue(sclLevel);
  };
  sda.addListener(update);
  scl.addListener(update);
}

// --- inputs ---
function applyInput(input) {
  if (input.kind === 'key' || input.kind === 'level') {
    // a key: down pulls its pin low; an encoder contact: its level (input.down = low)
    if (input.down) pinsLow.add(input.pin);
    else pinsLow.delete(input.pin);
    if (powered) mcu.gpio[input.pin].setInputValue(!input.down);
  } else if (input.kind === 'cut') {
    powerOff('power-cut');
  } else if (input.kind === 'boot') {
    powerOff('reset');
    powerOn();
  } else if (input.kind === 'tear') {
    tearAfter = input.n;
  } else if (input.kind === 'reload') {
    if (powered) {
      sendConsole(0x03);
      reloadState = 'interrupting';
      emit({ t: nowUs(), event: 'ctrl-c' });
    }
  }
}

function flushPio() {
  if (pioWords.length && clock.nanos - pioLastNs > 50000) {
    emit({ t: Math.round(pioLastNs / 1000), pio: pioWords });
    pioWords = [];
  }
}

// The hot loop: a burst of instructions up to the next check (inputs, alarms). In a function
// of its own, with locals, so that V8 optimises it (module-level code it does not).
function burst(core, clock, pio0, pio1, limit) {
  const start = clock.nanos;
  while (!core.waiting && clock.nanos < limit) {
    const cycles = core.executeInstruction();
    clock.tick(cycles * CYCLE_NS);
    if (!pio0.stopped) runPio(pio0, 0, cycles);
    if (!pio1.stopped) runPio(pio1, 1, cycles);
    if (cutNow) break;
  }
  busyNs += clock.nanos - start;
}

// --- the run ---
clock = new SimulationClock();
powerOn();
let nextCheckNs = 0;
function nextInputNs() {
  return nextInput < inputs.length ? inputs[nextInput].t * 1000 : Infinity;
}
let lastDebugNs = 0;
const WINDOW_NS = 100e6;
// Settled: the firmware reaches its loop's sleeps. Its idle loop keeps the CPU about 12% busy
// (measured on the language screen); a step at work keeps it at 100%.
const IDLE_SHARE = 0.95;
let windowStartNs = 0;
const busyWindows = [];
for (;;) {
  const now = clock.nanos;
  if (now >= nextCheckNs || cutNow) {
    if (cutNow) {
      cutNow = false;
      powerOff('cut during a flash operation');
      // the scripted cut or boot that caused it still runs at its time
    }
    while (nextInput < inputs.length && inputs[nextInput].t * 1000 <= clock.nanos) {
      applyInput(inputs[nextInput]);
      nextInput += 1;
    }
    if (powered) flushPio();
    if (spiRecord && clock.nanos - spiRecord.endNs > SPI_GAP_NS) flushSpi();
    if (clock.nanos >= windowStartNs + WINDOW_NS) {
      // the CPU's busy share per 100 ms window: the board has settled when it has idled
      busyWindows.push(busyNs / (clock.nanos - windowStartNs));
      if (busyWindows.length > 100) busyWindows.shift();
      if (process.env.PICO_DEBUG) process.stderr.write(`busy ${nowUs()} ${busyWindows.at(-1).toFixed(2)}\n`);
      flushOut(); // a reader can follow the run
      windowStartNs = clock.nanos;
      busyNs = 0;
    }
    if (clock.nanos >= endNs && nextInput >= inputs.length) {
      const quiet = clock.nanos - Math.max(lastI2cNs, endNs);
      const recent = busyWindows.slice(-Math.round(settleNs / WINDOW_NS));
      const idle = recent.length > 0 && recent.every((share) => share < IDLE_SHARE);
      if (!powered || (quiet >= settleNs && idle) || clock.nanos >= maxNs) break;
    }
    if (process.env.PICO_DEBUG && powered && clock.nanos - lastDebugNs >= 1e9) {
      lastDebugNs = clock.nanos;
      process.stderr.write(`t=${nowUs()} pc=${mcu.core.PC.toString(16)} waiting=${mcu.core.waiting} pio=${mcu.pio[0].stopped},${mcu.pio[1].stopped} r=${Array.from(mcu.core.registers.slice(0,4)).map(x=>x.toString(16))} ins=${[-6,-4,-2,0,2,4].map(o=>mcu.readUint16(mcu.core.PC+o).toString(16))}\n`);
    }
    nextCheckNs = Math.min(nextInputNs(), clock.nanos + 1e6);
  }
  if (!powered) {
    const target = Math.min(nextInputNs(), Math.max(endNs, clock.nanos));
    if (target === Infinity || target <= clock.nanos) {
      if (nextInput >= inputs.length) break;
    }
    clock.tick(Math.max(target - clock.nanos, 0));
    nextCheckNs = clock.nanos;
    continue;
  }
  const core = mcu.core;
  if (core.waiting) {
    // WFE with SEVONPEND: a pending interrupt ends the wait, enabled or masked
    if (core.pendingInterrupts & core.enabledInterrupts) {
      core.waiting = false;
      continue;
    }
    const toAlarm = clock.nanosToNextAlarm;
    const step = Math.max(Math.min(toAlarm, nextCheckNs - clock.nanos), CYCLE_NS);
    clock.tick(step);
    // the PIO runs on while the CPU sleeps (rotaryio's machine watches the encoder's pins)
    const cycles = Math.round(step / CYCLE_NS);
    if (!mcu.pio[0].stopped) runPio(mcu.pio[0], 0, cycles);
    if (!mcu.pio[1].stopped) runPio(mcu.pio[1], 1, cycles);
    continue;
  }
  burst(core, clock, mcu.pio[0], mcu.pio[1], nextCheckNs);
}
if (powered) {
  flushPio();
  flushSpi();
  flash.set(mcu.flash.subarray(0, FLASH_SIZE));
}
emit({ t: nowUs(), event: 'end', flash: flashStats, powered });
flushOut();
closeSync(out);
writeFileSync(plan.nvm_out, flash.subarray(NVM_OFFSET, NVM_OFFSET + NVM_SIZE));
