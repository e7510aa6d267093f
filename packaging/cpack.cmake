# CPack: a Debian package and a relocatable tarball (`cpack -G DEB` / `cpack -G TGZ` in the build
# directory, or `cmake --build build --target package`).
set(CPACK_PACKAGE_NAME clusterplanner)
set(CPACK_PACKAGE_VENDOR "ClusterPlanner developers")
# A placeholder until the project has a public address; set it before publishing a package.
set(CPACK_PACKAGE_CONTACT "ClusterPlanner developers <maintainers@clusterplanner.invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_RESOURCE_FILE_README ${PROJECT_SOURCE_DIR}/README.md)
set(CPACK_GENERATOR DEB TGZ)
set(CPACK_PACKAGE_FILE_NAME ${CPACK_PACKAGE_NAME}-${PROJECT_VERSION}-${CMAKE_SYSTEM_PROCESSOR})
set(CPACK_STRIP_FILES ON)
# Tests and benchmarks are not installed; only the two programs and their data are.
set(CPACK_INSTALL_DEFAULT_DIRECTORY_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ
                                                GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
# The synopsis is CPACK_PACKAGE_DESCRIPTION_SUMMARY; this is the extended description.
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "Infrastructure architects drag GPUs, servers, racks, switches and fabrics onto a\ncanvas, or generate Fat-Tree, rail-optimised Fat-Tree, Dragonfly and Torus\nlayouts, and see training time, inference cost, power, goodput and the\nbottleneck, compare scenarios, and export PDF and CSV reports.")
# Shared-library dependencies (Qt 6, SQLite, libstdc++) come from dpkg-shlibdeps; the rest are
# what the programs load at run time without linking: Qt's platform plugins and the PDF font.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "qt6-qpa-plugins, fonts-dejavu-core")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "poppler-utils")

include(CPack)
