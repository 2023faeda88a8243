/* OpenCL constant values for pycl.
 *
 * A transcription of the Khronos ABI: the values of CL/cl.h (OpenCL 1.0 to
 * 3.0, complete, in cl.h's order and grouping) followed by the extension
 * constants that PyOpenCL exposes in its constant classes and the error codes
 * of the Khronos extension headers. A trailing comment gives the OpenCL
 * version that introduced a core constant (none: 1.0).
 *
 * This file is read by the C compiler (through pycl_shim.h) and by cffi's
 * ffi.cdef(), so it holds only comments, blank lines and
 * "#define CL_NAME <integer literal>" lines: no expressions, casts, suffixes,
 * include guards or conditionals. Redefining a name with the same literal is
 * harmless in C; a different value is an error, so each name appears once.
 */

/* Error Codes */
#define CL_SUCCESS                                   0
#define CL_DEVICE_NOT_FOUND                          -1
#define CL_DEVICE_NOT_AVAILABLE                      -2
#define CL_COMPILER_NOT_AVAILABLE                    -3
#define CL_MEM_OBJECT_ALLOCATION_FAILURE             -4
#define CL_OUT_OF_RESOURCES                          -5
#define CL_OUT_OF_HOST_MEMORY                        -6
#define CL_PROFILING_INFO_NOT_AVAILABLE              -7
#define CL_MEM_COPY_OVERLAP                          -8
#define CL_IMAGE_FORMAT_MISMATCH                     -9
#define CL_IMAGE_FORMAT_NOT_SUPPORTED                -10
#define CL_BUILD_PROGRAM_FAILURE                     -11
#define CL_MAP_FAILURE                               -12
#define CL_MISALIGNED_SUB_BUFFER_OFFSET              -13 /* 1.1 */
#define CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST -14 /* 1.1 */
#define CL_COMPILE_PROGRAM_FAILURE                   -15 /* 1.2 */
#define CL_LINKER_NOT_AVAILABLE                      -16 /* 1.2 */
#define CL_LINK_PROGRAM_FAILURE                      -17 /* 1.2 */
#define CL_DEVICE_PARTITION_FAILED                   -18 /* 1.2 */
#define CL_KERNEL_ARG_INFO_NOT_AVAILABLE             -19 /* 1.2 */
#define CL_INVALID_VALUE                             -30
#define CL_INVALID_DEVICE_TYPE                       -31
#define CL_INVALID_PLATFORM                          -32
#define CL_INVALID_DEVICE                            -33
#define CL_INVALID_CONTEXT                           -34
#define CL_INVALID_QUEUE_PROPERTIES                  -35
#define CL_INVALID_COMMAND_QUEUE                     -36
#define CL_INVALID_HOST_PTR                          -37
#define CL_INVALID_MEM_OBJECT                        -38
#define CL_INVALID_IMAGE_FORMAT_DESCRIPTOR           -39
#define CL_INVALID_IMAGE_SIZE                        -40
#define CL_INVALID_SAMPLER                           -41
#define CL_INVALID_BINARY                            -42
#define CL_INVALID_BUILD_OPTIONS                     -43
#define CL_INVALID_PROGRAM                           -44
#define CL_INVALID_PROGRAM_EXECUTABLE                -45
#define CL_INVALID_KERNEL_NAME                       -46
#define CL_INVALID_KERNEL_DEFINITION                 -47
#define CL_INVALID_KERNEL                            -48
#define CL_INVALID_ARG_INDEX                         -49
#define CL_INVALID_ARG_VALUE                         -50
#define CL_INVALID_ARG_SIZE                          -51
#define CL_INVALID_KERNEL_ARGS                       -52
#define CL_INVALID_WORK_DIMENSION                    -53
#define CL_INVALID_WORK_GROUP_SIZE                   -54
#define CL_INVALID_WORK_ITEM_SIZE                    -55
#define CL_INVALID_GLOBAL_OFFSET                     -56
#define CL_INVALID_EVENT_WAIT_LIST                   -57
#define CL_INVALID_EVENT                             -58
#define CL_INVALID_OPERATION                         -59
#define CL_INVALID_GL_OBJECT                         -60
#define CL_INVALID_BUFFER_SIZE                       -61
#define CL_INVALID_MIP_LEVEL                         -62
#define CL_INVALID_GLOBAL_WORK_SIZE                  -63
#define CL_INVALID_PROPERTY                          -64 /* 1.1 */
#define CL_INVALID_IMAGE_DESCRIPTOR                  -65 /* 1.2 */
#define CL_INVALID_COMPILER_OPTIONS                  -66 /* 1.2 */
#define CL_INVALID_LINKER_OPTIONS                    -67 /* 1.2 */
#define CL_INVALID_DEVICE_PARTITION_COUNT            -68 /* 1.2 */
#define CL_INVALID_PIPE_SIZE                         -69 /* 2.0 */
#define CL_INVALID_DEVICE_QUEUE                      -70 /* 2.0 */
#define CL_INVALID_SPEC_ID                           -71 /* 2.2 */
#define CL_MAX_SIZE_RESTRICTION_EXCEEDED             -72 /* 2.2 */

/* cl_bool */
#define CL_FALSE        0
#define CL_TRUE         1
#define CL_BLOCKING     1 /* 1.2 */
#define CL_NON_BLOCKING 0 /* 1.2 */

/* cl_platform_info */
#define CL_PLATFORM_PROFILE                 0x0900
#define CL_PLATFORM_VERSION                 0x0901
#define CL_PLATFORM_NAME                    0x0902
#define CL_PLATFORM_VENDOR                  0x0903
#define CL_PLATFORM_EXTENSIONS              0x0904
#define CL_PLATFORM_HOST_TIMER_RESOLUTION   0x0905 /* 2.1 */
#define CL_PLATFORM_NUMERIC_VERSION         0x0906 /* 3.0 */
#define CL_PLATFORM_EXTENSIONS_WITH_VERSION 0x0907 /* 3.0 */

/* cl_device_type - bitfield */
#define CL_DEVICE_TYPE_DEFAULT     0x1
#define CL_DEVICE_TYPE_CPU         0x2
#define CL_DEVICE_TYPE_GPU         0x4
#define CL_DEVICE_TYPE_ACCELERATOR 0x8
#define CL_DEVICE_TYPE_CUSTOM      0x10 /* 1.2 */
#define CL_DEVICE_TYPE_ALL         0xFFFFFFFF

/* cl_device_info */
#define CL_DEVICE_TYPE                                    0x1000
#define CL_DEVICE_VENDOR_ID                               0x1001
#define CL_DEVICE_MAX_COMPUTE_UNITS                       0x1002
#define CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS                0x1003
#define CL_DEVICE_MAX_WORK_GROUP_SIZE                     0x1004
#define CL_DEVICE_MAX_WORK_ITEM_SIZES                     0x1005
#define CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR             0x1006
#define CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT            0x1007
#define CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT              0x1008
#define CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG             0x1009
#define CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT            0x100A
#define CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE           0x100B
#define CL_DEVICE_MAX_CLOCK_FREQUENCY                     0x100C
#define CL_DEVICE_ADDRESS_BITS                            0x100D
#define CL_DEVICE_MAX_READ_IMAGE_ARGS                     0x100E
#define CL_DEVICE_MAX_WRITE_IMAGE_ARGS                    0x100F
#define CL_DEVICE_MAX_MEM_ALLOC_SIZE                      0x1010
#define CL_DEVICE_IMAGE2D_MAX_WIDTH                       0x1011
#define CL_DEVICE_IMAGE2D_MAX_HEIGHT                      0x1012
#define CL_DEVICE_IMAGE3D_MAX_WIDTH                       0x1013
#define CL_DEVICE_IMAGE3D_MAX_HEIGHT                      0x1014
#define CL_DEVICE_IMAGE3D_MAX_DEPTH                       0x1015
#define CL_DEVICE_IMAGE_SUPPORT                           0x1016
#define CL_DEVICE_MAX_PARAMETER_SIZE                      0x1017
#define CL_DEVICE_MAX_SAMPLERS                            0x1018
#define CL_DEVICE_MEM_BASE_ADDR_ALIGN                     0x1019
#define CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE                0x101A
#define CL_DEVICE_SINGLE_FP_CONFIG                        0x101B
#define CL_DEVICE_GLOBAL_MEM_CACHE_TYPE                   0x101C
#define CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE               0x101D
#define CL_DEVICE_GLOBAL_MEM_CACHE_SIZE                   0x101E
#define CL_DEVICE_GLOBAL_MEM_SIZE                         0x101F
#define CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE                0x1020
#define CL_DEVICE_MAX_CONSTANT_ARGS                       0x1021
#define CL_DEVICE_LOCAL_MEM_TYPE                          0x1022
#define CL_DEVICE_LOCAL_MEM_SIZE                          0x1023
#define CL_DEVICE_ERROR_CORRECTION_SUPPORT                0x1024
#define CL_DEVICE_PROFILING_TIMER_RESOLUTION              0x1025
#define CL_DEVICE_ENDIAN_LITTLE                           0x1026
#define CL_DEVICE_AVAILABLE                               0x1027
#define CL_DEVICE_COMPILER_AVAILABLE                      0x1028
#define CL_DEVICE_EXECUTION_CAPABILITIES                  0x1029
#define CL_DEVICE_QUEUE_PROPERTIES                        0x102A /* deprecated */
#define CL_DEVICE_QUEUE_ON_HOST_PROPERTIES                0x102A /* 2.0 */
#define CL_DEVICE_NAME                                    0x102B
#define CL_DEVICE_VENDOR                                  0x102C
#define CL_DRIVER_VERSION                                 0x102D
#define CL_DEVICE_PROFILE                                 0x102E
#define CL_DEVICE_VERSION                                 0x102F
#define CL_DEVICE_EXTENSIONS                              0x1030
#define CL_DEVICE_PLATFORM                                0x1031
#define CL_DEVICE_DOUBLE_FP_CONFIG                        0x1032 /* 1.2 */
#define CL_DEVICE_HALF_FP_CONFIG                          0x1033 /* cl_khr_fp16, declared in cl_ext.h */
#define CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF             0x1034 /* 1.1 */
#define CL_DEVICE_HOST_UNIFIED_MEMORY                     0x1035 /* 1.1, deprecated */
#define CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR                0x1036 /* 1.1 */
#define CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT               0x1037 /* 1.1 */
#define CL_DEVICE_NATIVE_VECTOR_WIDTH_INT                 0x1038 /* 1.1 */
#define CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG                0x1039 /* 1.1 */
#define CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT               0x103A /* 1.1 */
#define CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE              0x103B /* 1.1 */
#define CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF                0x103C /* 1.1 */
#define CL_DEVICE_OPENCL_C_VERSION                        0x103D /* 1.1 */
#define CL_DEVICE_LINKER_AVAILABLE                        0x103E /* 1.2 */
#define CL_DEVICE_BUILT_IN_KERNELS                        0x103F /* 1.2 */
#define CL_DEVICE_IMAGE_MAX_BUFFER_SIZE                   0x1040 /* 1.2 */
#define CL_DEVICE_IMAGE_MAX_ARRAY_SIZE                    0x1041 /* 1.2 */
#define CL_DEVICE_PARENT_DEVICE                           0x1042 /* 1.2 */
#define CL_DEVICE_PARTITION_MAX_SUB_DEVICES               0x1043 /* 1.2 */
#define CL_DEVICE_PARTITION_PROPERTIES                    0x1044 /* 1.2 */
#define CL_DEVICE_PARTITION_AFFINITY_DOMAIN               0x1045 /* 1.2 */
#define CL_DEVICE_PARTITION_TYPE                          0x1046 /* 1.2 */
#define CL_DEVICE_REFERENCE_COUNT                         0x1047 /* 1.2 */
#define CL_DEVICE_PREFERRED_INTEROP_USER_SYNC             0x1048 /* 1.2 */
#define CL_DEVICE_PRINTF_BUFFER_SIZE                      0x1049 /* 1.2 */
#define CL_DEVICE_IMAGE_PITCH_ALIGNMENT                   0x104A /* 2.0 */
#define CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT            0x104B /* 2.0 */
#define CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS               0x104C /* 2.0 */
#define CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE                0x104D /* 2.0 */
#define CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES              0x104E /* 2.0 */
#define CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE          0x104F /* 2.0 */
#define CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE                0x1050 /* 2.0 */
#define CL_DEVICE_MAX_ON_DEVICE_QUEUES                    0x1051 /* 2.0 */
#define CL_DEVICE_MAX_ON_DEVICE_EVENTS                    0x1052 /* 2.0 */
#define CL_DEVICE_SVM_CAPABILITIES                        0x1053 /* 2.0 */
#define CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE    0x1054 /* 2.0 */
#define CL_DEVICE_MAX_PIPE_ARGS                           0x1055 /* 2.0 */
#define CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS            0x1056 /* 2.0 */
#define CL_DEVICE_PIPE_MAX_PACKET_SIZE                    0x1057 /* 2.0 */
#define CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT     0x1058 /* 2.0 */
#define CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT       0x1059 /* 2.0 */
#define CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT        0x105A /* 2.0 */
#define CL_DEVICE_IL_VERSION                              0x105B /* 2.1 */
#define CL_DEVICE_MAX_NUM_SUB_GROUPS                      0x105C /* 2.1 */
#define CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS  0x105D /* 2.1 */
#define CL_DEVICE_NUMERIC_VERSION                         0x105E /* 3.0 */
#define CL_DEVICE_EXTENSIONS_WITH_VERSION                 0x1060 /* 3.0 */
#define CL_DEVICE_ILS_WITH_VERSION                        0x1061 /* 3.0 */
#define CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION           0x1062 /* 3.0 */
#define CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES              0x1063 /* 3.0 */
#define CL_DEVICE_ATOMIC_FENCE_CAPABILITIES               0x1064 /* 3.0 */
#define CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT          0x1065 /* 3.0 */
#define CL_DEVICE_OPENCL_C_ALL_VERSIONS                   0x1066 /* 3.0 */
#define CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE      0x1067 /* 3.0 */
#define CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT 0x1068 /* 3.0 */
#define CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT           0x1069 /* 3.0 */
#define CL_DEVICE_OPENCL_C_FEATURES                       0x106F /* 3.0 */
#define CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES             0x1070 /* 3.0 */
#define CL_DEVICE_PIPE_SUPPORT                            0x1071 /* 3.0 */
#define CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED       0x1072 /* 3.0 */

/* cl_device_fp_config - bitfield */
#define CL_FP_DENORM                        0x1
#define CL_FP_INF_NAN                       0x2
#define CL_FP_ROUND_TO_NEAREST              0x4
#define CL_FP_ROUND_TO_ZERO                 0x8
#define CL_FP_ROUND_TO_INF                  0x10
#define CL_FP_FMA                           0x20
#define CL_FP_SOFT_FLOAT                    0x40 /* 1.1 */
#define CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT 0x80 /* 1.2 */

/* cl_device_mem_cache_type */
#define CL_NONE             0x0
#define CL_READ_ONLY_CACHE  0x1
#define CL_READ_WRITE_CACHE 0x2

/* cl_device_local_mem_type */
#define CL_LOCAL  0x1
#define CL_GLOBAL 0x2

/* cl_device_exec_capabilities - bitfield */
#define CL_EXEC_KERNEL        0x1
#define CL_EXEC_NATIVE_KERNEL 0x2

/* cl_command_queue_properties - bitfield */
#define CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE 0x1
#define CL_QUEUE_PROFILING_ENABLE              0x2
#define CL_QUEUE_ON_DEVICE                     0x4 /* 2.0 */
#define CL_QUEUE_ON_DEVICE_DEFAULT             0x8 /* 2.0 */

/* cl_context_info */
#define CL_CONTEXT_REFERENCE_COUNT 0x1080
#define CL_CONTEXT_DEVICES         0x1081
#define CL_CONTEXT_PROPERTIES      0x1082
#define CL_CONTEXT_NUM_DEVICES     0x1083 /* 1.1 */

/* cl_context_properties */
#define CL_CONTEXT_PLATFORM          0x1084
#define CL_CONTEXT_INTEROP_USER_SYNC 0x1085 /* 1.2 */

/* cl_device_partition_property */
#define CL_DEVICE_PARTITION_EQUALLY            0x1086 /* 1.2 */
#define CL_DEVICE_PARTITION_BY_COUNTS          0x1087 /* 1.2 */
#define CL_DEVICE_PARTITION_BY_COUNTS_LIST_END 0x0    /* 1.2 */
#define CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN 0x1088 /* 1.2 */

/* cl_device_affinity_domain */
#define CL_DEVICE_AFFINITY_DOMAIN_NUMA               0x1  /* 1.2 */
#define CL_DEVICE_AFFINITY_DOMAIN_L4_CACHE           0x2  /* 1.2 */
#define CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE           0x4  /* 1.2 */
#define CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE           0x8  /* 1.2 */
#define CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE           0x10 /* 1.2 */
#define CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE 0x20 /* 1.2 */

/* cl_device_svm_capabilities */
#define CL_DEVICE_SVM_COARSE_GRAIN_BUFFER 0x1 /* 2.0 */
#define CL_DEVICE_SVM_FINE_GRAIN_BUFFER   0x2 /* 2.0 */
#define CL_DEVICE_SVM_FINE_GRAIN_SYSTEM   0x4 /* 2.0 */
#define CL_DEVICE_SVM_ATOMICS             0x8 /* 2.0 */

/* cl_command_queue_info */
#define CL_QUEUE_CONTEXT          0x1090
#define CL_QUEUE_DEVICE           0x1091
#define CL_QUEUE_REFERENCE_COUNT  0x1092
#define CL_QUEUE_PROPERTIES       0x1093
#define CL_QUEUE_SIZE             0x1094 /* 2.0 */
#define CL_QUEUE_DEVICE_DEFAULT   0x1095 /* 2.1 */
#define CL_QUEUE_PROPERTIES_ARRAY 0x1098 /* 3.0 */

/* cl_mem_flags and cl_svm_mem_flags - bitfield */
#define CL_MEM_READ_WRITE            0x1
#define CL_MEM_WRITE_ONLY            0x2
#define CL_MEM_READ_ONLY             0x4
#define CL_MEM_USE_HOST_PTR          0x8
#define CL_MEM_ALLOC_HOST_PTR        0x10
#define CL_MEM_COPY_HOST_PTR         0x20
#define CL_MEM_HOST_WRITE_ONLY       0x80   /* 1.2 */
#define CL_MEM_HOST_READ_ONLY        0x100  /* 1.2 */
#define CL_MEM_HOST_NO_ACCESS        0x200  /* 1.2 */
#define CL_MEM_SVM_FINE_GRAIN_BUFFER 0x400  /* 2.0 */
#define CL_MEM_SVM_ATOMICS           0x800  /* 2.0 */
#define CL_MEM_KERNEL_READ_AND_WRITE 0x1000 /* 2.0 */

/* cl_mem_migration_flags - bitfield */
#define CL_MIGRATE_MEM_OBJECT_HOST              0x1 /* 1.2 */
#define CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED 0x2 /* 1.2 */

/* cl_channel_order */
#define CL_R             0x10B0
#define CL_A             0x10B1
#define CL_RG            0x10B2
#define CL_RA            0x10B3
#define CL_RGB           0x10B4
#define CL_RGBA          0x10B5
#define CL_BGRA          0x10B6
#define CL_ARGB          0x10B7
#define CL_INTENSITY     0x10B8
#define CL_LUMINANCE     0x10B9
#define CL_Rx            0x10BA /* 1.1 */
#define CL_RGx           0x10BB /* 1.1 */
#define CL_RGBx          0x10BC /* 1.1 */
#define CL_DEPTH         0x10BD /* 1.2 */
#define CL_DEPTH_STENCIL 0x10BE /* 1.2 */
#define CL_sRGB          0x10BF /* 2.0 */
#define CL_sRGBx         0x10C0 /* 2.0 */
#define CL_sRGBA         0x10C1 /* 2.0 */
#define CL_sBGRA         0x10C2 /* 2.0 */
#define CL_ABGR          0x10C3 /* 2.0 */

/* cl_channel_type */
#define CL_SNORM_INT8         0x10D0
#define CL_SNORM_INT16        0x10D1
#define CL_UNORM_INT8         0x10D2
#define CL_UNORM_INT16        0x10D3
#define CL_UNORM_SHORT_565    0x10D4
#define CL_UNORM_SHORT_555    0x10D5
#define CL_UNORM_INT_101010   0x10D6
#define CL_SIGNED_INT8        0x10D7
#define CL_SIGNED_INT16       0x10D8
#define CL_SIGNED_INT32       0x10D9
#define CL_UNSIGNED_INT8      0x10DA
#define CL_UNSIGNED_INT16     0x10DB
#define CL_UNSIGNED_INT32     0x10DC
#define CL_HALF_FLOAT         0x10DD
#define CL_FLOAT              0x10DE
#define CL_UNORM_INT24        0x10DF /* 1.2 */
#define CL_UNORM_INT_101010_2 0x10E0 /* 2.1 */

/* cl_mem_object_type */
#define CL_MEM_OBJECT_BUFFER         0x10F0
#define CL_MEM_OBJECT_IMAGE2D        0x10F1
#define CL_MEM_OBJECT_IMAGE3D        0x10F2
#define CL_MEM_OBJECT_IMAGE2D_ARRAY  0x10F3 /* 1.2 */
#define CL_MEM_OBJECT_IMAGE1D        0x10F4 /* 1.2 */
#define CL_MEM_OBJECT_IMAGE1D_ARRAY  0x10F5 /* 1.2 */
#define CL_MEM_OBJECT_IMAGE1D_BUFFER 0x10F6 /* 1.2 */
#define CL_MEM_OBJECT_PIPE           0x10F7 /* 2.0 */

/* cl_mem_info */
#define CL_MEM_TYPE                 0x1100
#define CL_MEM_FLAGS                0x1101
#define CL_MEM_SIZE                 0x1102
#define CL_MEM_HOST_PTR             0x1103
#define CL_MEM_MAP_COUNT            0x1104
#define CL_MEM_REFERENCE_COUNT      0x1105
#define CL_MEM_CONTEXT              0x1106
#define CL_MEM_ASSOCIATED_MEMOBJECT 0x1107 /* 1.1 */
#define CL_MEM_OFFSET               0x1108 /* 1.1 */
#define CL_MEM_USES_SVM_POINTER     0x1109 /* 2.0 */
#define CL_MEM_PROPERTIES           0x110A /* 3.0 */

/* cl_image_info */
#define CL_IMAGE_FORMAT         0x1110
#define CL_IMAGE_ELEMENT_SIZE   0x1111
#define CL_IMAGE_ROW_PITCH      0x1112
#define CL_IMAGE_SLICE_PITCH    0x1113
#define CL_IMAGE_WIDTH          0x1114
#define CL_IMAGE_HEIGHT         0x1115
#define CL_IMAGE_DEPTH          0x1116
#define CL_IMAGE_ARRAY_SIZE     0x1117 /* 1.2 */
#define CL_IMAGE_BUFFER         0x1118 /* 1.2 */
#define CL_IMAGE_NUM_MIP_LEVELS 0x1119 /* 1.2 */
#define CL_IMAGE_NUM_SAMPLES    0x111A /* 1.2 */

/* cl_pipe_info */
#define CL_PIPE_PACKET_SIZE 0x1120 /* 2.0 */
#define CL_PIPE_MAX_PACKETS 0x1121 /* 2.0 */
#define CL_PIPE_PROPERTIES  0x1122 /* 3.0 */

/* cl_addressing_mode */
#define CL_ADDRESS_NONE            0x1130
#define CL_ADDRESS_CLAMP_TO_EDGE   0x1131
#define CL_ADDRESS_CLAMP           0x1132
#define CL_ADDRESS_REPEAT          0x1133
#define CL_ADDRESS_MIRRORED_REPEAT 0x1134 /* 1.1 */

/* cl_filter_mode */
#define CL_FILTER_NEAREST 0x1140
#define CL_FILTER_LINEAR  0x1141

/* cl_sampler_info */
#define CL_SAMPLER_REFERENCE_COUNT   0x1150
#define CL_SAMPLER_CONTEXT           0x1151
#define CL_SAMPLER_NORMALIZED_COORDS 0x1152
#define CL_SAMPLER_ADDRESSING_MODE   0x1153
#define CL_SAMPLER_FILTER_MODE       0x1154
#define CL_SAMPLER_MIP_FILTER_MODE   0x1155 /* 2.0 */
#define CL_SAMPLER_LOD_MIN           0x1156 /* 2.0 */
#define CL_SAMPLER_LOD_MAX           0x1157 /* 2.0 */
#define CL_SAMPLER_PROPERTIES        0x1158 /* 3.0 */

/* cl_map_flags - bitfield */
#define CL_MAP_READ                    0x1
#define CL_MAP_WRITE                   0x2
#define CL_MAP_WRITE_INVALIDATE_REGION 0x4 /* 1.2 */

/* cl_program_info */
#define CL_PROGRAM_REFERENCE_COUNT            0x1160
#define CL_PROGRAM_CONTEXT                    0x1161
#define CL_PROGRAM_NUM_DEVICES                0x1162
#define CL_PROGRAM_DEVICES                    0x1163
#define CL_PROGRAM_SOURCE                     0x1164
#define CL_PROGRAM_BINARY_SIZES               0x1165
#define CL_PROGRAM_BINARIES                   0x1166
#define CL_PROGRAM_NUM_KERNELS                0x1167 /* 1.2 */
#define CL_PROGRAM_KERNEL_NAMES               0x1168 /* 1.2 */
#define CL_PROGRAM_IL                         0x1169 /* 2.1 */
#define CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT 0x116A /* 2.2 */
#define CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT 0x116B /* 2.2 */

/* cl_program_build_info */
#define CL_PROGRAM_BUILD_STATUS                     0x1181
#define CL_PROGRAM_BUILD_OPTIONS                    0x1182
#define CL_PROGRAM_BUILD_LOG                        0x1183
#define CL_PROGRAM_BINARY_TYPE                      0x1184 /* 1.2 */
#define CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE 0x1185 /* 2.0 */

/* cl_program_binary_type */
#define CL_PROGRAM_BINARY_TYPE_NONE            0x0 /* 1.2 */
#define CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT 0x1 /* 1.2 */
#define CL_PROGRAM_BINARY_TYPE_LIBRARY         0x2 /* 1.2 */
#define CL_PROGRAM_BINARY_TYPE_EXECUTABLE      0x4 /* 1.2 */

/* cl_build_status */
#define CL_BUILD_SUCCESS     0
#define CL_BUILD_NONE        -1
#define CL_BUILD_ERROR       -2
#define CL_BUILD_IN_PROGRESS -3

/* cl_kernel_info */
#define CL_KERNEL_FUNCTION_NAME   0x1190
#define CL_KERNEL_NUM_ARGS        0x1191
#define CL_KERNEL_REFERENCE_COUNT 0x1192
#define CL_KERNEL_CONTEXT         0x1193
#define CL_KERNEL_PROGRAM         0x1194
#define CL_KERNEL_ATTRIBUTES      0x1195 /* 1.2 */

/* cl_kernel_arg_info */
#define CL_KERNEL_ARG_ADDRESS_QUALIFIER 0x1196 /* 1.2 */
#define CL_KERNEL_ARG_ACCESS_QUALIFIER  0x1197 /* 1.2 */
#define CL_KERNEL_ARG_TYPE_NAME         0x1198 /* 1.2 */
#define CL_KERNEL_ARG_TYPE_QUALIFIER    0x1199 /* 1.2 */
#define CL_KERNEL_ARG_NAME              0x119A /* 1.2 */

/* cl_kernel_arg_address_qualifier */
#define CL_KERNEL_ARG_ADDRESS_GLOBAL   0x119B /* 1.2 */
#define CL_KERNEL_ARG_ADDRESS_LOCAL    0x119C /* 1.2 */
#define CL_KERNEL_ARG_ADDRESS_CONSTANT 0x119D /* 1.2 */
#define CL_KERNEL_ARG_ADDRESS_PRIVATE  0x119E /* 1.2 */

/* cl_kernel_arg_access_qualifier */
#define CL_KERNEL_ARG_ACCESS_READ_ONLY  0x11A0 /* 1.2 */
#define CL_KERNEL_ARG_ACCESS_WRITE_ONLY 0x11A1 /* 1.2 */
#define CL_KERNEL_ARG_ACCESS_READ_WRITE 0x11A2 /* 1.2 */
#define CL_KERNEL_ARG_ACCESS_NONE       0x11A3 /* 1.2 */

/* cl_kernel_arg_type_qualifier */
#define CL_KERNEL_ARG_TYPE_NONE     0   /* 1.2 */
#define CL_KERNEL_ARG_TYPE_CONST    0x1 /* 1.2 */
#define CL_KERNEL_ARG_TYPE_RESTRICT 0x2 /* 1.2 */
#define CL_KERNEL_ARG_TYPE_VOLATILE 0x4 /* 1.2 */
#define CL_KERNEL_ARG_TYPE_PIPE     0x8 /* 2.0 */

/* cl_kernel_work_group_info */
#define CL_KERNEL_WORK_GROUP_SIZE                    0x11B0
#define CL_KERNEL_COMPILE_WORK_GROUP_SIZE            0x11B1
#define CL_KERNEL_LOCAL_MEM_SIZE                     0x11B2
#define CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE 0x11B3
#define CL_KERNEL_PRIVATE_MEM_SIZE                   0x11B4
#define CL_KERNEL_GLOBAL_WORK_SIZE                   0x11B5 /* 1.2 */

/* cl_kernel_sub_group_info */
#define CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE 0x2033 /* 2.1 */
#define CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE    0x2034 /* 2.1 */
#define CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT 0x11B8 /* 2.1 */
#define CL_KERNEL_MAX_NUM_SUB_GROUPS             0x11B9 /* 2.1 */
#define CL_KERNEL_COMPILE_NUM_SUB_GROUPS         0x11BA /* 2.1 */

/* cl_kernel_exec_info */
#define CL_KERNEL_EXEC_INFO_SVM_PTRS              0x11B6 /* 2.0 */
#define CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM 0x11B7 /* 2.0 */

/* cl_event_info */
#define CL_EVENT_COMMAND_QUEUE            0x11D0
#define CL_EVENT_COMMAND_TYPE             0x11D1
#define CL_EVENT_REFERENCE_COUNT          0x11D2
#define CL_EVENT_COMMAND_EXECUTION_STATUS 0x11D3
#define CL_EVENT_CONTEXT                  0x11D4 /* 1.1 */

/* cl_command_type */
#define CL_COMMAND_NDRANGE_KERNEL       0x11F0
#define CL_COMMAND_TASK                 0x11F1
#define CL_COMMAND_NATIVE_KERNEL        0x11F2
#define CL_COMMAND_READ_BUFFER          0x11F3
#define CL_COMMAND_WRITE_BUFFER         0x11F4
#define CL_COMMAND_COPY_BUFFER          0x11F5
#define CL_COMMAND_READ_IMAGE           0x11F6
#define CL_COMMAND_WRITE_IMAGE          0x11F7
#define CL_COMMAND_COPY_IMAGE           0x11F8
#define CL_COMMAND_COPY_IMAGE_TO_BUFFER 0x11F9
#define CL_COMMAND_COPY_BUFFER_TO_IMAGE 0x11FA
#define CL_COMMAND_MAP_BUFFER           0x11FB
#define CL_COMMAND_MAP_IMAGE            0x11FC
#define CL_COMMAND_UNMAP_MEM_OBJECT     0x11FD
#define CL_COMMAND_MARKER               0x11FE
#define CL_COMMAND_ACQUIRE_GL_OBJECTS   0x11FF
#define CL_COMMAND_RELEASE_GL_OBJECTS   0x1200
#define CL_COMMAND_READ_BUFFER_RECT     0x1201 /* 1.1 */
#define CL_COMMAND_WRITE_BUFFER_RECT    0x1202 /* 1.1 */
#define CL_COMMAND_COPY_BUFFER_RECT     0x1203 /* 1.1 */
#define CL_COMMAND_USER                 0x1204 /* 1.1 */
#define CL_COMMAND_BARRIER              0x1205 /* 1.2 */
#define CL_COMMAND_MIGRATE_MEM_OBJECTS  0x1206 /* 1.2 */
#define CL_COMMAND_FILL_BUFFER          0x1207 /* 1.2 */
#define CL_COMMAND_FILL_IMAGE           0x1208 /* 1.2 */
#define CL_COMMAND_SVM_FREE             0x1209 /* 2.0 */
#define CL_COMMAND_SVM_MEMCPY           0x120A /* 2.0 */
#define CL_COMMAND_SVM_MEMFILL          0x120B /* 2.0 */
#define CL_COMMAND_SVM_MAP              0x120C /* 2.0 */
#define CL_COMMAND_SVM_UNMAP            0x120D /* 2.0 */
#define CL_COMMAND_SVM_MIGRATE_MEM      0x120E /* 3.0 */

/* command execution status */
#define CL_COMPLETE  0x0
#define CL_RUNNING   0x1
#define CL_SUBMITTED 0x2
#define CL_QUEUED    0x3

/* cl_buffer_create_type */
#define CL_BUFFER_CREATE_TYPE_REGION 0x1220 /* 1.1 */

/* cl_profiling_info */
#define CL_PROFILING_COMMAND_QUEUED   0x1280
#define CL_PROFILING_COMMAND_SUBMIT   0x1281
#define CL_PROFILING_COMMAND_START    0x1282
#define CL_PROFILING_COMMAND_END      0x1283
#define CL_PROFILING_COMMAND_COMPLETE 0x1284 /* 2.0 */

/* cl_device_atomic_capabilities - bitfield */
#define CL_DEVICE_ATOMIC_ORDER_RELAXED     0x1  /* 3.0 */
#define CL_DEVICE_ATOMIC_ORDER_ACQ_REL     0x2  /* 3.0 */
#define CL_DEVICE_ATOMIC_ORDER_SEQ_CST     0x4  /* 3.0 */
#define CL_DEVICE_ATOMIC_SCOPE_WORK_ITEM   0x8  /* 3.0 */
#define CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP  0x10 /* 3.0 */
#define CL_DEVICE_ATOMIC_SCOPE_DEVICE      0x20 /* 3.0 */
#define CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES 0x40 /* 3.0 */

/* cl_device_device_enqueue_capabilities - bitfield */
#define CL_DEVICE_QUEUE_SUPPORTED           0x1 /* 3.0 */
#define CL_DEVICE_QUEUE_REPLACEABLE_DEFAULT 0x2 /* 3.0 */

/* cl_khronos_vendor_id */
#define CL_KHRONOS_VENDOR_ID_CODEPLAY 0x10004

/* cl_version */
#define CL_NAME_VERSION_MAX_NAME_SIZE 64    /* 3.0; size of cl_name_version.name */
#define CL_VERSION_MAJOR_BITS         10    /* 3.0 */
#define CL_VERSION_MINOR_BITS         10    /* 3.0 */
#define CL_VERSION_PATCH_BITS         12    /* 3.0 */
#define CL_VERSION_MAJOR_MASK         0x3FF /* 3.0 */
#define CL_VERSION_MINOR_MASK         0x3FF /* 3.0 */
#define CL_VERSION_PATCH_MASK         0xFFF /* 3.0 */

/* ==== Extension constants (cl_ext.h, cl_gl.h, cl_egl.h, cl_d3d1x.h,
 * cl_dx9_media_sharing.h, cl_va_api_media_sharing_intel.h) ==== */

/* cl_khr_icd */
#define CL_PLATFORM_ICD_SUFFIX_KHR 0x0920

/* cl_khr_gl_sharing: cl_gl_object_type */
#define CL_GL_OBJECT_BUFFER          0x2000
#define CL_GL_OBJECT_TEXTURE2D       0x2001
#define CL_GL_OBJECT_TEXTURE3D       0x2002
#define CL_GL_OBJECT_RENDERBUFFER    0x2003
#define CL_GL_OBJECT_TEXTURE2D_ARRAY 0x200E
#define CL_GL_OBJECT_TEXTURE1D       0x200F
#define CL_GL_OBJECT_TEXTURE1D_ARRAY 0x2010
#define CL_GL_OBJECT_TEXTURE_BUFFER  0x2011

/* cl_khr_gl_sharing: cl_gl_texture_info */
#define CL_GL_TEXTURE_TARGET 0x2004
#define CL_GL_MIPMAP_LEVEL   0x2005
#define CL_GL_NUM_SAMPLES    0x2012

/* cl_khr_gl_sharing: cl_gl_context_info */
#define CL_CURRENT_DEVICE_FOR_GL_CONTEXT_KHR 0x2006
#define CL_DEVICES_FOR_GL_CONTEXT_KHR        0x2007

/* cl_khr_gl_sharing: cl_context_properties */
#define CL_GL_CONTEXT_KHR     0x2008
#define CL_EGL_DISPLAY_KHR    0x2009
#define CL_GLX_DISPLAY_KHR    0x200A
#define CL_WGL_HDC_KHR        0x200B
#define CL_CGL_SHAREGROUP_KHR 0x200C

/* cl_khr_gl_event: cl_command_type */
#define CL_COMMAND_GL_FENCE_SYNC_OBJECT_KHR 0x200D

/* cl_khr_image2d_from_buffer: cl_device_info (same values as the 2.0 core names) */
#define CL_DEVICE_IMAGE_PITCH_ALIGNMENT_KHR        0x104A
#define CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT_KHR 0x104B

/* cl_khr_spir */
#define CL_DEVICE_SPIR_VERSIONS             0x40E0
#define CL_PROGRAM_BINARY_TYPE_INTERMEDIATE 0x40E1

/* cl_khr_mipmap_image: cl_sampler_info (same values as the 2.0 core names) */
#define CL_SAMPLER_MIP_FILTER_MODE_KHR 0x1155
#define CL_SAMPLER_LOD_MIN_KHR         0x1156
#define CL_SAMPLER_LOD_MAX_KHR         0x1157

/* cl_nv_device_attribute_query: cl_device_info */
#define CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV     0x4000
#define CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV     0x4001
#define CL_DEVICE_REGISTERS_PER_BLOCK_NV          0x4002
#define CL_DEVICE_WARP_SIZE_NV                    0x4003
#define CL_DEVICE_GPU_OVERLAP_NV                  0x4004
#define CL_DEVICE_KERNEL_EXEC_TIMEOUT_NV          0x4005
#define CL_DEVICE_INTEGRATED_MEMORY_NV            0x4006
#define CL_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT_NV 0x4007
#define CL_DEVICE_PCI_BUS_ID_NV                   0x4008
#define CL_DEVICE_PCI_SLOT_ID_NV                  0x4009
#define CL_DEVICE_PCI_DOMAIN_ID_NV                0x400A

/* cl_amd_device_memory_flags: cl_mem_flags */
#define CL_MEM_USE_PERSISTENT_MEM_AMD 0x40

/* cl_ext_atomic_counters_32: cl_device_info */
#define CL_DEVICE_MAX_ATOMIC_COUNTERS_EXT 0x4032

/* cl_amd_device_attribute_query: cl_device_info */
#define CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_AMD       0x4030
#define CL_DEVICE_MAX_WORK_GROUP_SIZE_AMD             0x4031
#define CL_DEVICE_PREFERRED_CONSTANT_BUFFER_SIZE_AMD  0x4033
#define CL_DEVICE_PCIE_ID_AMD                         0x4034
#define CL_DEVICE_PROFILING_TIMER_OFFSET_AMD          0x4036
#define CL_DEVICE_TOPOLOGY_AMD                        0x4037
#define CL_DEVICE_BOARD_NAME_AMD                      0x4038
#define CL_DEVICE_GLOBAL_FREE_MEMORY_AMD              0x4039
#define CL_DEVICE_SIMD_PER_COMPUTE_UNIT_AMD           0x4040
#define CL_DEVICE_SIMD_WIDTH_AMD                      0x4041
#define CL_DEVICE_SIMD_INSTRUCTION_WIDTH_AMD          0x4042
#define CL_DEVICE_WAVEFRONT_WIDTH_AMD                 0x4043
#define CL_DEVICE_GLOBAL_MEM_CHANNELS_AMD             0x4044
#define CL_DEVICE_GLOBAL_MEM_CHANNEL_BANKS_AMD        0x4045
#define CL_DEVICE_GLOBAL_MEM_CHANNEL_BANK_WIDTH_AMD   0x4046
#define CL_DEVICE_LOCAL_MEM_SIZE_PER_COMPUTE_UNIT_AMD 0x4047
#define CL_DEVICE_LOCAL_MEM_BANKS_AMD                 0x4048
#define CL_DEVICE_THREAD_TRACE_SUPPORTED_AMD          0x4049
#define CL_DEVICE_GFXIP_MAJOR_AMD                     0x404A
#define CL_DEVICE_GFXIP_MINOR_AMD                     0x404B
#define CL_DEVICE_AVAILABLE_ASYNC_QUEUES_AMD          0x404C

/* cl_amd_device_attribute_query: cl_device_topology_amd.raw.type */
#define CL_DEVICE_TOPOLOGY_TYPE_PCIE_AMD 1

/* cl_amd_offline_devices: cl_context_properties */
#define CL_CONTEXT_OFFLINE_DEVICES_AMD 0x403F

/* cl_qcom_ext_host_ptr: cl_device_info */
#define CL_DEVICE_EXT_MEM_PADDING_IN_BYTES_QCOM 0x40A0
#define CL_DEVICE_PAGE_SIZE_QCOM                0x40A1

/* cl_intel_advanced_motion_estimation: cl_device_info */
#define CL_DEVICE_ME_VERSION_INTEL 0x407E

/* cl_intel_simultaneous_sharing: cl_device_info */
#define CL_DEVICE_SIMULTANEOUS_INTEROPS_INTEL     0x4104
#define CL_DEVICE_NUM_SIMULTANEOUS_INTEROPS_INTEL 0x4105

/* Extension error codes: cl_khr_gl_sharing, cl_khr_icd */
#define CL_INVALID_GL_SHAREGROUP_REFERENCE_KHR -1000
#define CL_PLATFORM_NOT_FOUND_KHR              -1001

/* Extension error codes: cl_khr_d3d10_sharing */
#define CL_INVALID_D3D10_DEVICE_KHR            -1002
#define CL_INVALID_D3D10_RESOURCE_KHR          -1003
#define CL_D3D10_RESOURCE_ALREADY_ACQUIRED_KHR -1004
#define CL_D3D10_RESOURCE_NOT_ACQUIRED_KHR     -1005

/* Extension error codes: cl_khr_d3d11_sharing */
#define CL_INVALID_D3D11_DEVICE_KHR            -1006
#define CL_INVALID_D3D11_RESOURCE_KHR          -1007
#define CL_D3D11_RESOURCE_ALREADY_ACQUIRED_KHR -1008
#define CL_D3D11_RESOURCE_NOT_ACQUIRED_KHR     -1009

/* Extension error codes: cl_khr_dx9_media_sharing */
#define CL_INVALID_DX9_MEDIA_ADAPTER_KHR          -1010
#define CL_INVALID_DX9_MEDIA_SURFACE_KHR          -1011
#define CL_DX9_MEDIA_SURFACE_ALREADY_ACQUIRED_KHR -1012
#define CL_DX9_MEDIA_SURFACE_NOT_ACQUIRED_KHR     -1013

/* Extension error codes: cl_intel_dx9_media_sharing (same values as the KHR names above) */
#define CL_INVALID_DX9_DEVICE_INTEL            -1010
#define CL_INVALID_DX9_RESOURCE_INTEL          -1011
#define CL_DX9_RESOURCE_ALREADY_ACQUIRED_INTEL -1012
#define CL_DX9_RESOURCE_NOT_ACQUIRED_INTEL     -1013

/* Extension error codes: cl_ext_device_fission */
#define CL_DEVICE_PARTITION_FAILED_EXT -1057
#define CL_INVALID_PARTITION_COUNT_EXT -1058
#define CL_INVALID_PARTITION_NAME_EXT  -1059

/* Extension error codes: cl_khr_egl_image */
#define CL_EGL_RESOURCE_NOT_ACQUIRED_KHR -1092
#define CL_INVALID_EGL_OBJECT_KHR        -1093

/* Extension error codes: cl_intel_accelerator */
#define CL_INVALID_ACCELERATOR_INTEL            -1094
#define CL_INVALID_ACCELERATOR_TYPE_INTEL       -1095
#define CL_INVALID_ACCELERATOR_DESCRIPTOR_INTEL -1096
#define CL_ACCELERATOR_TYPE_NOT_SUPPORTED_INTEL -1097

/* Extension error codes: cl_intel_va_api_media_sharing */
#define CL_INVALID_VA_API_MEDIA_ADAPTER_INTEL          -1098
#define CL_INVALID_VA_API_MEDIA_SURFACE_INTEL          -1099
#define CL_VA_API_MEDIA_SURFACE_ALREADY_ACQUIRED_INTEL -1100
#define CL_VA_API_MEDIA_SURFACE_NOT_ACQUIRED_INTEL     -1101

/* Extension error codes: cl_arm_controlled_kernel_termination */
#define CL_COMMAND_TERMINATED_ITSELF_WITH_FAILURE_ARM -1108

/* Extension error codes: cl_khr_terminate_context */
#define CL_CONTEXT_TERMINATED_KHR -1121

/* Extension error codes: cl_khr_command_buffer, cl_khr_command_buffer_mutable_dispatch */
#define CL_INVALID_COMMAND_BUFFER_KHR       -1138
#define CL_INVALID_SYNC_POINT_WAIT_LIST_KHR -1139
#define CL_INCOMPATIBLE_COMMAND_QUEUE_KHR   -1140
#define CL_INVALID_MUTABLE_COMMAND_KHR      -1141

/* Extension error codes: cl_khr_semaphore */
#define CL_INVALID_SEMAPHORE_KHR -1142
