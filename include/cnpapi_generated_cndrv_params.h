/* cnpapi_generated_cndrv_params.h: in Cambricon's SDK, the parameter records
 * CNPAPI's driver callbacks hand out. mlusim has no driver callbacks, so there
 * are none; the header exists because host code includes it next to cnpapi.h. */
#ifndef MLUSIM_CNPAPI_GENERATED_CNDRV_PARAMS_H_
#define MLUSIM_CNPAPI_GENERATED_CNDRV_PARAMS_H_

#include "cn_api.h"
#include "cnpapi.h"

#endif /* MLUSIM_CNPAPI_GENERATED_CNDRV_PARAMS_H_ */
