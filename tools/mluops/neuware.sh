# The NEUWARE_HOME-like tree mlu-ops builds against: mlusim's SDK headers
# (CNRT, CNDrv, CNDev, CNPAPI, BANG, CNNL; not mlusim's own mlu_op.h), its
# libraries under the names mlu-ops links (libcnrt, libcndrv, libcndev,
# libcnbin, libcnpapi are libmlusim; libcnnl is mlusim's CNNL stand-in),
# cmake/FindBANG.cmake, and bin/cncc, which is mlusim-cncc.

# prepare_neuware <dir>
prepare_neuware() {
  nw_home=$1
  mkdir -p "$nw_home/include" "$nw_home/lib64" "$nw_home/cmake" "$nw_home/bin"
  for nw_header in $MLUOPS_HEADERS; do
    ln -sfn "$MLUOPS_INCLUDE/$nw_header" "$nw_home/include/$nw_header"
  done
  link_openblas_headers "$nw_home/include"
  for nw_name in libcnrt.so libcndrv.so libcndev.so libcnbin.so libcnpapi.so \
                 "$MLUOPS_RUNTIME_SONAME"; do
    ln -sfn "$MLUOPS_RUNTIME_LIB" "$nw_home/lib64/$nw_name"
  done
  if [ -n "$MLUOPS_CNNL_LIB" ]; then  # a build of mlusim with its CNNL stand-in
    for nw_name in libcnnl.so "$MLUOPS_CNNL_SONAME"; do
      ln -sfn "$MLUOPS_CNNL_LIB" "$nw_home/lib64/$nw_name"
    done
  fi
  ln -sfn "$MLUOPS_FINDBANG" "$nw_home/cmake/FindBANG.cmake"
  ln -sfn "$MLUOPS_CNCC" "$nw_home/bin/cncc"
}

# mlu-ops' dcn tests include <openblas/cblas.h>, the layout of the images
# Cambricon builds in; Debian keeps cblas.h in a folder of its own, which
# include/openblas stands for here.
link_openblas_headers() {
  nw_flags=$(pkg-config --cflags-only-I openblas 2>/dev/null || true)
  nw_dir=${nw_flags#-I}
  nw_dir=${nw_dir%% *}
  nw_dir=${nw_dir%/}
  if [ -n "$nw_dir" ] && [ -f "$nw_dir/cblas.h" ]; then
    ln -sfn "$nw_dir" "$1/openblas"
  fi
}
