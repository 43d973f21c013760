/* cnpapi.h: Cambricon's profiling API (CNPAPI), of which the simulator has
 * initialisation and release only: it has no hardware counters or activity
 * records to hand out. mlusim's own reports (mlusim.h) and traces take their
 * place. Names and values follow CNPAPI's public headers. */
#ifndef MLUSIM_CNPAPI_H_
#define MLUSIM_CNPAPI_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  CNPAPI_SUCCESS = 0,
  CNPAPI_ERROR_NOT_INITIALIZED = 1,
  CNPAPI_ERROR_INVALID_DEVICE = 2,
  CNPAPI_ERROR_INVALID_DEVICE_ID = 2,
  CNPAPI_ERROR_INVALID_ARGUMENT = 3,
  CNPAPI_ERROR_UNKNOWN = 8
} cnpapiResult;

cnpapiResult cnpapiInit(void);
cnpapiResult cnpapiRelease(void);
/* The simulated device count (1). */
cnpapiResult cnpapiGetDeviceCount(int *num);
cnpapiResult cnpapiGetResultString(cnpapiResult result, const char **str);

#ifdef __cplusplus
}
#endif

#endif /* MLUSIM_CNPAPI_H_ */
