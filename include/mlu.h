/* mlu.h: what a .mlu file includes for the device side of BANG C in
 * Cambricon's SDK (the intrinsics, qualifiers and built-in variables). On the
 * simulator that is bang.h; build .mlu files with mlusim-cncc. */
#ifndef MLUSIM_MLU_H_
#define MLUSIM_MLU_H_

#include "bang.h"

#endif /* MLUSIM_MLU_H_ */
