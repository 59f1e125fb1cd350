# CPack: a .deb that installs the app with a .desktop entry, an icon, AppStream metadata and MIME types for .pb,
# .pbtxt and model.json, so graphs open from a file manager. `cmake --build build --target package`.
set(FLOWSCOPE_PACKAGING ${CMAKE_CURRENT_SOURCE_DIR}/packaging)
install(FILES ${FLOWSCOPE_PACKAGING}/io.github.flowscope.Flowscope.desktop DESTINATION share/applications)
install(FILES ${FLOWSCOPE_PACKAGING}/flowscope.svg DESTINATION share/icons/hicolor/scalable/apps)
install(FILES ${FLOWSCOPE_PACKAGING}/io.github.flowscope.Flowscope.metainfo.xml DESTINATION share/metainfo)
install(FILES ${FLOWSCOPE_PACKAGING}/flowscope-mime.xml DESTINATION share/mime/packages RENAME flowscope.xml)
install(FILES ${CMAKE_CURRENT_SOURCE_DIR}/resources/examples/mnist_cnn.pb DESTINATION share/flowscope/examples)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME flowscope)
set(CPACK_PACKAGE_VENDOR "Flowscope")
set(CPACK_PACKAGE_CONTACT "Flowscope developers <flowscope@users.noreply.github.com>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "See, optimize and profile TensorFlow-style dataflow graphs")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
# Debian 12's runtime libraries (dpkg-shlibdeps cannot see Graphviz's plugin directory, so they are listed).
set(CPACK_DEBIAN_PACKAGE_DEPENDS
    "libqt6widgets6, libqt6svg6, libqt6concurrent6, libprotobuf32, libleveldb1d, libdnnl2, libonnx1, \
libgvc6, libcgraph6, libgomp1, libstdc++6, zlib1g, python3 (>= 3.11), python3 (<< 3.12), python3-numpy")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "mesa-vulkan-drivers")
include(CPack)
