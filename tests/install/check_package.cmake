# Builds the Debian package and the tarball with CPack and checks what they declare and hold.
# Run by ctest as: cmake -DBUILD_DIR=... -DWORK_DIR=... -DDPKG_DEB=... -P check_package.cmake
file(REMOVE_RECURSE ${WORK_DIR})
execute_process(COMMAND ${CMAKE_CPACK_COMMAND} --config ${BUILD_DIR}/CPackConfig.cmake -G "DEB;TGZ"
                        -B ${WORK_DIR}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "cpack failed (${rc}):\n${out}")
endif()
file(GLOB debs ${WORK_DIR}/*.deb)
file(GLOB tarballs ${WORK_DIR}/*.tar.gz)
list(LENGTH debs debCount)
list(LENGTH tarballs tarCount)
if(NOT debCount EQUAL 1 OR NOT tarCount EQUAL 1)
    message(FATAL_ERROR "expected one .deb and one .tar.gz in ${WORK_DIR}")
endif()
execute_process(COMMAND ${DPKG_DEB} --field ${debs} Package Depends
                OUTPUT_VARIABLE fields RESULT_VARIABLE rc)
foreach(needed "Package: clusterplanner" "libqt6widgets6" "libqt6charts6" "libsqlite3-0"
               "qt6-qpa-plugins" "fonts-dejavu-core")
    string(FIND "${fields}" "${needed}" at)
    if(NOT rc EQUAL 0 OR at EQUAL -1)
        message(FATAL_ERROR "the package's control fields lack '${needed}':\n${fields}")
    endif()
endforeach()
execute_process(COMMAND ${DPKG_DEB} --contents ${debs} OUTPUT_VARIABLE contents)
foreach(path ./usr/bin/clusterplanner ./usr/bin/clusterplanner-cli
             ./usr/libexec/clusterplanner/clusterplanner-export
             ./usr/share/clusterplanner/catalogs/gpus.json
             ./usr/share/applications/io.github.clusterplanner.ClusterPlanner.desktop
             ./usr/share/metainfo/io.github.clusterplanner.ClusterPlanner.metainfo.xml)
    string(FIND "${contents}" "${path}" at)
    if(at EQUAL -1)
        message(FATAL_ERROR "the package does not hold ${path}")
    endif()
endforeach()
message(STATUS "packages in ${WORK_DIR}")
