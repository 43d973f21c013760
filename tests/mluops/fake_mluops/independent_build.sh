#!/bin/bash
# The settings mlu-ops' build script names its generators and their inputs
# with, which mlusim-mluops reads (this tree's build runs nothing else).
GEN_SYMBOL_VIS_FILE_PY="./scripts/gen_symbol_visibility_map.py"
GEN_BANGC_KERNELS_COLLECTION_H_PY="./scripts/bangc_kernels_path_config/bangc_kernels_gen_header_file_for_mlu_ops.py"
BANGC_KERNEL_PATH_CHECK="./scripts/bangc_kernels_path_config/bangc_kernels_path_check.py"
MLUOP_SYMBOL_VIS_FILE="symbol_visibility.map"
TARGET_SYMBOL_FILE="mlu_op.h"
TARGET_SYMBOL_FILE_LITE_COLLECTION="bangc_kernels_collection.h"
