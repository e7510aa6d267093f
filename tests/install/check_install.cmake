# Installs the build into a prefix, moves the prefix elsewhere, and checks that the installed
# programs find their catalogs, samples and docs relative to where they now are, with none of the
# CLUSTERPLANNER_* variables that point the build-tree tests at the source tree.
# Run by ctest as: cmake -DBUILD_DIR=... -DWORK_DIR=... -P check_install.cmake
file(REMOVE_RECURSE ${WORK_DIR})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK_DIR}/prefix
                RESULT_VARIABLE rc OUTPUT_QUIET)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "cmake --install failed (${rc})")
endif()
file(RENAME ${WORK_DIR}/prefix ${WORK_DIR}/moved)
set(root ${WORK_DIR}/moved)

foreach(expected
        bin/clusterplanner
        bin/clusterplanner-cli
        libexec/clusterplanner/clusterplanner-export
        share/clusterplanner/catalogs/gpus.json
        share/clusterplanner/samples/h100-1024-ndr-rail-fat-tree.json
        share/clusterplanner/docs/user-guide.md
        share/applications/io.github.clusterplanner.ClusterPlanner.desktop
        share/icons/hicolor/scalable/apps/io.github.clusterplanner.ClusterPlanner.svg
        share/metainfo/io.github.clusterplanner.ClusterPlanner.metainfo.xml
        share/doc/clusterplanner/LICENSE)
    if(NOT EXISTS ${root}/${expected})
        message(FATAL_ERROR "not installed: ${expected}")
    endif()
endforeach()
foreach(unexpected bin/clusterplanner-bench bin/clusterplanner-validate bin/tst_cli)
    if(EXISTS ${root}/${unexpected})
        message(FATAL_ERROR "installed but should not be: ${unexpected}")
    endif()
endforeach()

set(clean_env env -u CLUSTERPLANNER_CATALOG_DIR -u CLUSTERPLANNER_SAMPLES_DIR
              -u CLUSTERPLANNER_DOCS_DIR CLUSTERPLANNER_DB=${WORK_DIR}/catalog.sqlite)
execute_process(COMMAND ${clean_env} ${root}/bin/clusterplanner-cli version
                OUTPUT_VARIABLE version RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "clusterplanner-cli version failed (${rc})")
endif()
foreach(line "catalogs: ${root}/share/clusterplanner/catalogs"
             "samples:  ${root}/share/clusterplanner/samples"
             "docs:     ${root}/share/clusterplanner/docs")
    string(FIND "${version}" "${line}" at)
    if(at EQUAL -1)
        message(FATAL_ERROR "expected '${line}' in:\n${version}")
    endif()
endforeach()
execute_process(COMMAND ${clean_env} ${root}/bin/clusterplanner-cli plan estimate
                        ${root}/share/clusterplanner/samples/l4-inference-fleet.json
                OUTPUT_VARIABLE estimate RESULT_VARIABLE rc)
string(FIND "${estimate}" "Bill of materials" at)
if(NOT rc EQUAL 0 OR at EQUAL -1)
    message(FATAL_ERROR "the installed CLI cannot estimate a shipped sample (${rc}):\n${estimate}")
endif()

# `export` runs the helper from libexec; it must find the same shipped data.
execute_process(COMMAND ${clean_env} ${root}/bin/clusterplanner-cli export
                        ${root}/share/clusterplanner/samples/l4-inference-fleet.json
                        --bom-csv ${WORK_DIR}/bom.csv
                RESULT_VARIABLE rc ERROR_VARIABLE exportErrors)
if(NOT rc EQUAL 0 OR NOT EXISTS ${WORK_DIR}/bom.csv)
    message(FATAL_ERROR "the installed CLI cannot export a shipped sample (${rc}):\n${exportErrors}")
endif()

find_program(APPSTREAMCLI appstreamcli)
if(APPSTREAMCLI)
    execute_process(COMMAND ${APPSTREAMCLI} validate --no-net
                            ${root}/share/metainfo/io.github.clusterplanner.ClusterPlanner.metainfo.xml
                    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "AppStream metainfo does not validate:\n${out}")
    endif()
endif()
find_program(DESKTOP_FILE_VALIDATE desktop-file-validate)
if(DESKTOP_FILE_VALIDATE)
    execute_process(COMMAND ${DESKTOP_FILE_VALIDATE}
                            ${root}/share/applications/io.github.clusterplanner.ClusterPlanner.desktop
                    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR ".desktop file does not validate:\n${out}")
    endif()
endif()
message(STATUS "installed tree at ${root} finds its data")
