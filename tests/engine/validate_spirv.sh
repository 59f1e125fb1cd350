#!/bin/sh
# spirv_validate: runs spirv-val (Vulkan 1.1 rules, the target glslc compiles for) over the SPIR-V of every shader
# under SHADER_SOURCES, as the build wrote it to SPIRV_DIR. Fails when spirv-val is missing, a shader has no SPIR-V,
# or one does not validate. usage: validate_spirv.sh SPIRV_VAL SPIRV_DIR SHADER_SOURCES
spirv_val="$1" spirv_dir="$2" sources="$3"
if [ -z "$spirv_val" ] || [ ! -x "$spirv_val" ]; then
  echo "spirv-val not found: install spirv-tools (packaging/setup.sh test does) and reconfigure"
  exit 1
fi
checked=0 failed=0
for source in "$sources"/*.comp; do
  spv="$spirv_dir/$(basename "$source").spv"
  if [ ! -f "$spv" ]; then
    echo "FAIL $(basename "$source"): no SPIR-V at $spv"
    failed=$((failed + 1))
  elif "$spirv_val" --target-env vulkan1.1 "$spv"; then
    echo "ok   $(basename "$source")"
  else
    echo "FAIL $(basename "$source")"
    failed=$((failed + 1))
  fi
  checked=$((checked + 1))
done
echo "$checked shaders, $failed failed"
[ "$checked" -gt 0 ] && [ "$failed" -eq 0 ]
