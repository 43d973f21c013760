/* mlu.h: Cambricon's umbrella header for kernel code; on mlusim it is bang.h
 * (mlu-ops' kernels/kernel.h includes it). */
#ifndef MLUSIM_MLU_H_
#define MLUSIM_MLU_H_

#include "bang.h"

#endif /* MLUSIM_MLU_H_ */
