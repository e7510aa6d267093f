# The desktop program renders its window at the size --size gives (the documentation's images are
# made this way) and refuses a size it cannot use with exit code 2 and the reason.
# Run by ctest as: cmake -DAPP=... -DSAMPLE=... -DWORK_DIR=... -P check_screenshot_size.cmake
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
set(ENV{QT_QPA_PLATFORM} offscreen)
set(ENV{CLUSTERPLANNER_DB} ${WORK_DIR}/catalog.sqlite)

# 800 x 600: a PNG of that size. Its IHDR chunk holds the width and height as big-endian 32-bit
# numbers at bytes 16-19 and 20-23: 0x320 = 800, 0x258 = 600.
execute_process(COMMAND ${APP} ${SAMPLE} --size 800x600 --screenshot ${WORK_DIR}/shot.png
                RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "--size 800x600 --screenshot failed (${rc})")
endif()
file(READ ${WORK_DIR}/shot.png header LIMIT 24 HEX)
string(SUBSTRING ${header} 32 16 size)
if(NOT size STREQUAL "0000032000000258")
    message(FATAL_ERROR "the screenshot is not 800 x 600: IHDR size bytes ${size}")
endif()

# 10 x 10 and a size without its x: refused, nothing written.
foreach(bad 10x10 1920)
    execute_process(COMMAND ${APP} ${SAMPLE} --size ${bad} --screenshot ${WORK_DIR}/bad.png
                    RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
    if(NOT rc EQUAL 2)
        message(FATAL_ERROR "--size ${bad}: exit ${rc}, not 2")
    endif()
    if(NOT err MATCHES "--size ${bad}: give WIDTHxHEIGHT")
        message(FATAL_ERROR "--size ${bad}: no reason given: ${err}")
    endif()
    if(EXISTS ${WORK_DIR}/bad.png)
        message(FATAL_ERROR "--size ${bad} wrote a screenshot")
    endif()
endforeach()

# A plan that does not open: no screenshot of an empty window, exit 1 and the loader's reason.
file(WRITE ${WORK_DIR}/broken.json "{\"format\": \"clusterplanner-plan\", \"version\": 1}")
execute_process(COMMAND ${APP} ${WORK_DIR}/broken.json --screenshot ${WORK_DIR}/broken.png
                RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
if(NOT rc EQUAL 1)
    message(FATAL_ERROR "a plan that does not open: exit ${rc}, not 1")
endif()
if(NOT err MATCHES "broken.json: /name")
    message(FATAL_ERROR "a plan that does not open: no reason given: ${err}")
endif()
if(EXISTS ${WORK_DIR}/broken.png)
    message(FATAL_ERROR "a plan that does not open was saved as a screenshot")
endif()
