#!/usr/bin/env python3
# Stands for mlu-ops' check of its kernel folders: there is nothing to check.
print("kernel paths checked")
