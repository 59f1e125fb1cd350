# The Vulkan backend's target: GLSL compute shaders compiled to SPIR-V by glslc at build time (as C initializer lists)
# and embedded by exec/vulkan/shader_table.cpp; the same SPIR-V as binary files too, for the spirv_validate test.
find_package(Vulkan REQUIRED)
find_program(GLSLC glslc REQUIRED)
set(SHADER_DIR ${CMAKE_CURRENT_SOURCE_DIR}/exec/vulkan/shaders)
set(SHADER_OUT ${CMAKE_CURRENT_BINARY_DIR}/shaders)
file(MAKE_DIRECTORY ${SHADER_OUT})
file(GLOB SHADER_SOURCES CONFIGURE_DEPENDS ${SHADER_DIR}/*.comp)
file(GLOB SHADER_INCLUDES CONFIGURE_DEPENDS ${SHADER_DIR}/*.glsl)
set(SHADER_OUTPUTS)
foreach(shader ${SHADER_SOURCES})
  get_filename_component(name ${shader} NAME)
  set(glslc_flags -O --target-env=vulkan1.1 -I${SHADER_DIR})
  add_custom_command(
    OUTPUT ${SHADER_OUT}/${name}.inc ${SHADER_OUT}/${name}.spv
    COMMAND ${GLSLC} ${glslc_flags} -mfmt=c -o ${SHADER_OUT}/${name}.inc ${shader}
    COMMAND ${GLSLC} ${glslc_flags} -o ${SHADER_OUT}/${name}.spv ${shader}
    DEPENDS ${shader} ${SHADER_INCLUDES}
    COMMENT "glslc ${name}")
  list(APPEND SHADER_OUTPUTS ${SHADER_OUT}/${name}.inc)
endforeach()
add_custom_target(flowscope_shaders DEPENDS ${SHADER_OUTPUTS})

file(GLOB VULKAN_BACKEND_SOURCES CONFIGURE_DEPENDS exec/vulkan/*.cpp)
add_library(flowscope_backend_vulkan OBJECT ${VULKAN_BACKEND_SOURCES})
add_dependencies(flowscope_backend_vulkan flowscope_shaders)
target_include_directories(flowscope_backend_vulkan PRIVATE ${CMAKE_CURRENT_SOURCE_DIR} ${SHADER_OUT})
target_link_libraries(flowscope_backend_vulkan PRIVATE Vulkan::Vulkan)
