/* mlusim.h: what the simulator adds to the CNRT/mlu-ops API: choosing the
 * simulated device, reading the cost model's reports, and exporting traces. */
#ifndef MLUSIM_MLUSIM_H_
#define MLUSIM_MLUSIM_H_

#include <stddef.h>
#include <stdint.h>

#include "cnrt.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MLUSIM_MAX_CORES 128

/* The matrix unit's operand classes (by the wider source of an instruction). */
typedef enum {
  MLUSIM_MATRIX_INT8 = 0,
  MLUSIM_MATRIX_INT16,
  MLUSIM_MATRIX_HALF,  /* half and bfloat16 */
  MLUSIM_MATRIX_FLOAT,
  MLUSIM_MATRIX_CLASSES
} mlusimMatrixClass_t;

/* One simulated MLU board. `mlusim devices` and docs/devices.md give the source
 * of every figure of the presets and mark the estimates. */
typedef struct {
  char name[32];
  int bang_arch;               /* __BANG_ARCH__ of its cores: 270, 290, 372, 592 */
  int clusters;
  int cores_per_cluster;
  size_t nram_bytes;           /* physical NRAM per core */
  size_t wram_bytes;           /* physical WRAM per core */
  size_t sram_bytes;           /* physical SRAM per cluster */
  size_t stack_reserve_bytes;  /* NRAM and SRAM the device keeps for the stack */
  size_t gdram_bytes;
  size_t l2_bytes;             /* the GDRAM side's cache (not modelled: reported to the SDK) */
  int gdram_bus_bits;
  double clock_ghz;            /* the cores' clock: the preset's is the rated one */
  double gdram_gbps;           /* whole-device GDRAM bandwidth, GB/s */
  double cluster_gbps;         /* most one cluster can draw from GDRAM, GB/s */
  double onchip_bytes_per_cycle; /* NRAM<->NRAM/SRAM/WRAM moves per core */
  double sram_bytes_per_cycle;   /* a cluster's SRAM port: on-chip copies to or from its SRAM share it */
  double vector_bytes_per_cycle; /* vector unit width: ops/cycle = this / sizeof(dtype) */
  double matrix_macs_per_cycle[MLUSIM_MATRIX_CLASSES]; /* per core, by mlusimMatrixClass_t */
  double gdram_latency_ns;     /* a GDRAM request's latency: memory time, not core cycles */
  double atomic_latency_ns;    /* a GDRAM read-modify-write's */
  double atomic_hold_ns;       /* how long an atomic holds each 64-byte block it covers */
  double onchip_latency_cycles;
  double vector_latency_cycles;
  double barrier_latency_cycles;
  double dispatch_cycles;      /* how far apart the cores of a launch start, in the order of
                                  their index (the dispatcher hands tasks out one by one) */
  double launch_overhead_us;
  double kernel_load_us;       /* a kernel's first launch in a process: the host loads it
                                  while the queue waits (host-observed time only) */
  /* Scalar kernel code (docs/cost_model.md), in cycles of the core clock */
  double scalar_op_cycles;       /* an arithmetic, logic or compare operator */
  double scalar_divide_cycles;   /* a division, remainder or costly math call (exp, log, ...) */
  double scalar_block_cycles;    /* entering a block: a loop iteration, a branch taken, a call */
  double scalar_onchip_cycles;   /* a load or store of NRAM, WRAM or the stack */
  double scalar_sram_cycles;     /* a load or store of SRAM */
  double scalar_gdram_load_ns;   /* a GDRAM load, the stream waiting for it: memory time */
  double scalar_gdram_store_cycles; /* a GDRAM store (posted: the stream goes on) */
  /* The MLU200 operand rules; a device of bang_arch >= 300 enforces none of
     them (its kernels still use them to plan tiles) */
  int nram_align_bytes;        /* vector operands must start on this boundary */
  int vector_count_align_bytes; /* vector operand sizes must be a multiple of this (a power of 2) */
  int transpose_align_bytes;   /* __bang_transpose rows*size and cols*size multiple of this */
  /* The DMA queues (guide 5.3.3): requests one queue has under way at once
     (latencies overlap, bytes move one request after another); the bandwidth
     a written GDRAM byte takes beyond a read byte (0.25: a write costs 1.25
     reads); what each segment of a strided GDRAM access costs beyond its
     64-byte blocks, in bytes of bandwidth */
  int dma_requests_in_flight;
  double gdram_write_extra;
  double gdram_segment_bytes;
  /* The share of gdram_gbps the DRAM sustains (refresh, bank and read/write
     turn-around: no DRAM moves data at its rated rate all the time) */
  double gdram_efficiency;
} mlusimDeviceSpec_t;

int mlusimGetPresetCount(void);
cnrtRet_t mlusimGetPreset(int index, mlusimDeviceSpec_t *spec);
/* Selects the simulated device by preset name (e.g. "MLU370-X4"); also read from
 * the MLUSIM_DEVICE environment variable at start-up. An unknown name is an
 * error that lists the presets. */
cnrtRet_t mlusimSetDevicePreset(const char *name);
cnrtRet_t mlusimSetDeviceSpec(const mlusimDeviceSpec_t *spec);
cnrtRet_t mlusimGetDeviceSpec(mlusimDeviceSpec_t *spec);
/* Runs the current device's cores at `mhz` (boards run at 200-1600 MHz; the
 * preset's is its rated clock). 0 restores the rated clock of the current
 * preset. Also read from MLUSIM_CLOCK_MHZ at start-up. */
cnrtRet_t mlusimSetClockMHz(double mhz);
/* The cost model's estimated constants (docs/cost_model.md), by their field
 * names in mlusimDeviceSpec_t: "gdram_latency_ns" (also a scalar GDRAM load's
 * wait), "launch_overhead_us", "gdram_efficiency", ... Sets one on the current
 * device, or reads it; an unknown name, or a value the device cannot take, is
 * an error whose log line names the valid ones. MLUSIM_CONSTANTS
 * ("name=value,name=value") sets them at start-up, after MLUSIM_DEVICE. */
cnrtRet_t mlusimSetConstant(const char *name, double value);
cnrtRet_t mlusimGetConstant(const char *name, double *value);
/* Forgets which kernels this process launched: the next launch of each loads it
 * again, as in a fresh process. A first launch's loading (kernel_load_us) is in
 * the host-observed time cnrtNotifierElapsedTime gives, not in device time. */
void mlusimUnloadKernels(void);
/* Peak vector ops per second of the whole device for an mlu-ops dtype code. */
double mlusimPeakOpsPerSecond(int mluop_dtype);

/* Memory-copy directions of the device API, used to index bytes_moved. */
typedef enum {
  MLUSIM_GDRAM2NRAM = 0,
  MLUSIM_NRAM2GDRAM,
  MLUSIM_NRAM2NRAM,
  MLUSIM_GDRAM2GDRAM,
  MLUSIM_GDRAM2SRAM,
  MLUSIM_SRAM2GDRAM,
  MLUSIM_SRAM2NRAM,
  MLUSIM_NRAM2SRAM,
  MLUSIM_SRAM2SRAM,
  MLUSIM_NRAM2WRAM,
  MLUSIM_WRAM2NRAM,
  MLUSIM_GDRAM2WRAM,
  MLUSIM_SRAM2WRAM,
  MLUSIM_DIRECTION_COUNT
} mlusimDirection_t;
const char *mlusimDirectionName(int direction);

/* The pipes of a simulated core (docs/cost_model.md), indexing core_pipe_busy_us. */
typedef enum {
  MLUSIM_PIPE_IO = 0,  /* IO-DMA: copies touching GDRAM, atomics */
  MLUSIM_PIPE_MOVE,    /* Move-DMA: on-chip copies */
  MLUSIM_PIPE_VECTOR,  /* vector intrinsics */
  MLUSIM_PIPE_TENSOR,  /* matrix/conv intrinsics */
  MLUSIM_PIPE_COUNT
} mlusimPipe_t;

/* What one launch, or one operator call (all its launches), cost on the
 * simulated device. Efficiencies follow mlu-ops' performance standard and are
 * -1 when the operator declared no theory figure. */
typedef struct {
  char name[64];
  int launches;
  double device_time_us;
  /* The range of device_time_us when every constant of the cost model that is
   * still an estimate is set to half and to double its value, each the way
   * that shortens, then lengthens the launch, under both orders of atomics
   * that tie: the shortest and longest of those replays and the figure's
   * (docs/cost_model.md). */
  double device_time_us_low;
  double device_time_us_high;
  double bytes_moved[MLUSIM_DIRECTION_COUNT];
  double gdram_bytes;          /* GDRAM traffic of every kind, atomics included */
  double vector_ops_float;     /* elements processed by vector intrinsics, per dtype width */
  double vector_ops_half;
  double vector_ops_int;
  double atomic_elements;
  int cores;                   /* compute cores: the first entries of the per-core arrays */
  int memory_cores;            /* memory cores (UNION launches): the entries after them */
  double core_io_busy_us[MLUSIM_MAX_CORES];      /* IO and Move-DMA pipes */
  double core_compute_busy_us[MLUSIM_MAX_CORES]; /* vector and tensor pipes */
  double core_pipe_busy_us[MLUSIM_MAX_CORES][MLUSIM_PIPE_COUNT];
  double theory_io_bytes;
  double theory_ops;
  int theory_dtype;            /* mlu-ops dtype whose peak compute efficiency uses */
  double io_efficiency;
  double compute_efficiency;
  /* Their ranges, from the device time's (-1 where the efficiency is). */
  double io_efficiency_low, io_efficiency_high;
  double compute_efficiency_low, compute_efficiency_high;
  /* Pipe hazards (accesses of two pipes of a core meeting with no fence, of a
   * kind the boards resolve) that the launch resolved as the board does:
   * MLUSIM_HAZARDS=warn logs each pair of lines once (docs/finding_bugs.md). */
  int hazards_resolved;
  /* 1 when the timing model timed the launch (every launch, for an operator
   * call); 0 under MLUSIM_TIMING=off, where device_time_us is the launch
   * overhead alone and the pipes' busy times are 0. */
  int timed;
  /* 1 when the _low and _high fields are the error bar (MLUSIM_TIMING=bars,
   * every launch); 0 when they were not computed and equal the figure. */
  int error_bars;
} mlusimReport_t;

/* The calling host thread's last launch or operator call on `queue` (threads
 * sharing a queue each read their own; zeros before the first). */
cnrtRet_t mlusimGetLastLaunchReport(cnrtQueue_t queue, mlusimReport_t *report);
cnrtRet_t mlusimGetLastOpReport(cnrtQueue_t queue, mlusimReport_t *report);

/* The message of the last kernel fault or launch error on this host thread. */
const char *mlusimGetLastError(void);

/* Tracing (docs/tracing.md). Records every intrinsic of the cores the filter
 * admits; the filter is "kernel=<substring>,cluster=<n>,core=<n>" with any part
 * optional (also from MLUSIM_TRACE_FILTER). mlusimTraceStart is implied by
 * MLUSIM_TRACE_JSON=<file> and MLUSIM_TRACE_SVG=<file>, which write the file at
 * exit. Launches that run while tracing are counted from 0 (since the last
 * mlusimTraceClear). */
cnrtRet_t mlusimSetTraceFilter(const char *filter);
/* Which launches are kept for the exports (also MLUSIM_TRACE_LAUNCH): NULL or
 * "" every one (the default), "<n>" launch n only, "longest" the longest one,
 * any other text the longest launch of a kernel whose name contains it.
 * Keeping one launch bounds the memory a long program's trace takes. */
cnrtRet_t mlusimTraceSelectLaunch(const char *which);
cnrtRet_t mlusimTraceStart(void);
cnrtRet_t mlusimTraceStop(void);
/* Every kept launch as Chrome trace-event JSON (Perfetto, chrome://tracing). */
cnrtRet_t mlusimTraceWriteChromeJson(const char *path);
/* Launch `launch` (its number; -1: the longest kept) as an SVG timeline: one
 * row per pipe and stream of every traced core. cnrtErrorArgsInvalid if that
 * launch was not kept or traced no core. */
cnrtRet_t mlusimTraceWriteSvg(const char *path, int launch);
/* Launches counted while tracing since the last mlusimTraceClear. */
int mlusimTraceGetLaunchCount(void);
void mlusimTraceClear(void);

/* Checks for finding bugs (docs/finding_bugs.md).
 * Watchdog: a launch that runs longer than this many seconds of host time fails
 * with a report of its unfinished cores; 0 turns it off. Default 60, or
 * MLUSIM_WATCHDOG_SECONDS. Returns cnrtErrorArgsInvalid for a negative or
 * non-finite limit. */
cnrtRet_t mlusimSetWatchdogSeconds(double seconds);
double mlusimGetWatchdogSeconds(void);
/* What on-chip memory holds at the start of every launch (where the previous
 * launch could have written) and new cnrtMalloc memory holds: "nan" (0xFF
 * bytes: NaN in float and half, -1 in integers; the default), "zero", "off"
 * (leave what is there) or one byte such as "0xAB". Also MLUSIM_FILL. */
cnrtRet_t mlusimSetMemoryFill(const char *pattern);
/* Pipe hazards, a core's pipes (or scalar code and a pipe) meeting on the
 * same bytes with no fence (docs/finding_bugs.md): "warn" (the default:
 * the kinds boards resolve are resolved as the board does and logged once
 * per pair of lines, the others fail the launch), "fault" (every kind fails
 * the launch, as BANG C's rules say), "off" (the kinds boards resolve are
 * resolved, nothing is reported). NULL restores MLUSIM_HAZARDS. An unknown
 * name returns cnrtErrorArgsInvalid and logs the valid ones. */
cnrtRet_t mlusimSetHazards(const char *mode);
/* The timing model (docs/cost_model.md): "on" (the default: one replay of
 * each launch at the model's prices), "bars" (five, giving the error bar in
 * the report's _low and _high fields; mlusim demo, report and calibrate ask
 * for it), "off" (the functional mode: no replay; outputs, faults, races,
 * hazards and the watchdog as under "on", the report's device time the launch
 * overhead and `timed` 0). NULL restores MLUSIM_TIMING. An unknown name
 * returns cnrtErrorArgsInvalid and logs the valid ones. */
cnrtRet_t mlusimSetTiming(const char *mode);
/* The fill byte in use (0xFF for "nan"), or -1 for "off". */
int mlusimGetMemoryFill(void);
/* Guarded GDRAM: every cnrtMalloc gets its own mapping ending on an
 * inaccessible guard, and freed memory stays inaccessible for the next 1024
 * frees, so raw overruns and uses after free fault with a report. On (1) by
 * default; MLUSIM_GDRAM_GUARD=0 or 0 here turns it off for new allocations. */
cnrtRet_t mlusimSetGdramGuard(int on);
int mlusimGetGdramGuard(void);

#ifdef __cplusplus
}
#endif

#endif /* MLUSIM_MLUSIM_H_ */
