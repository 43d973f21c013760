// BANG C's function qualifiers and built-in variables of the running task.
#pragma once

#include "mlusim/bang/detail/core.h"

// mlusim-cncc translates the qualifiers itself (tools/cncc/translate.h); plain
// C++ that includes bang.h (in-tree kernels, host files) sees them as macros.
#ifndef __MLUSIM_CNCC__
#define __mlu_global__
#define __mlu_entry__
#define __mlu_func__ inline
#define __mlu_device__ inline
#endif

// Built-in variables: read-only values of the task the calling core runs.
#define taskId (::mlusim::this_core().task_id + 0)
#define taskDim (::mlusim::this_core().task_dim + 0)
#define taskIdX (::mlusim::this_core().task_id_x + 0)
#define taskIdY (::mlusim::this_core().task_id_y + 0)
#define taskIdZ (::mlusim::this_core().task_id_z + 0)
#define taskDimX (::mlusim::this_core().task_dim_x + 0)
#define taskDimY (::mlusim::this_core().task_dim_y + 0)
#define taskDimZ (::mlusim::this_core().task_dim_z + 0)
#define coreId (::mlusim::this_core().core_id + 0)
#define clusterId (::mlusim::this_core().cluster_id + 0)
#define coreDim (::mlusim::this_core().core_dim + 0)
#define clusterDim (::mlusim::this_core().cluster_dim + 0)
