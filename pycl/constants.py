"""OpenCL constants as PyOpenCL's constant classes.

``pycl.mem_flags.READ_WRITE``, ``pycl.device_info.NAME``,
``pycl.status_code.to_string(-30)`` ... work as in PyOpenCL 2026.1.4: the same
class names and attribute names, with plain ``int`` values, which are read at
import from the compiled module (``cl_shim/include/pycl/constants.h``), so that
Python and C share one transcription of the Khronos headers.

The names are those PyOpenCL 2026.1.4 declares (its runtime plus its type stub,
which adds the names its Linux wheel omits because they are compiled
conditionally: ``gl_object_type``, ``gl_texture_info``,
``mem_flags.USE_PERSISTENT_MEM_AMD``, ``context_properties.OFFLINE_DEVICES_AMD``,
``device_info.IMAGE_PITCH_ALIGNMENT``, ``IMAGE_BASE_ADDRESS_ALIGNMENT`` and
``MAX_ATOMIC_COUNTERS_EXT``). pycl adds two classes PyOpenCL does not have:
``build_status`` and ``kernel_exec_info``.

Differences from PyOpenCL's ``to_string`` (pycl extensions):

- For a bit-field class, a value equal to one attribute gives that name alone
  (PyOpenCL answers ``device_type.to_string(device_type.GPU)`` with
  ``"ALL | GPU"``); a combination of bits gives the names joined with
  ``" | "`` in ascending bit order (PyOpenCL: alphabetical order); bits that
  have no name are appended as one hexadecimal number (PyOpenCL drops them).
- Where several names share a value (``sampler_info.LOD_MIN`` and
  ``LOD_MIN_KHR``), the alphabetically first is returned, as in PyOpenCL.
"""

from __future__ import annotations

from pycl._constant_class import constant_class

# Order follows CL/cl.h; extension names come last in their class.
status_code = constant_class(
    "status_code",
    "CL_",
    """
        SUCCESS DEVICE_NOT_FOUND DEVICE_NOT_AVAILABLE COMPILER_NOT_AVAILABLE
        MEM_OBJECT_ALLOCATION_FAILURE OUT_OF_RESOURCES OUT_OF_HOST_MEMORY
        PROFILING_INFO_NOT_AVAILABLE MEM_COPY_OVERLAP IMAGE_FORMAT_MISMATCH
        IMAGE_FORMAT_NOT_SUPPORTED BUILD_PROGRAM_FAILURE MAP_FAILURE
        MISALIGNED_SUB_BUFFER_OFFSET EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST
        COMPILE_PROGRAM_FAILURE LINKER_NOT_AVAILABLE LINK_PROGRAM_FAILURE
        DEVICE_PARTITION_FAILED KERNEL_ARG_INFO_NOT_AVAILABLE
        INVALID_VALUE INVALID_DEVICE_TYPE INVALID_PLATFORM INVALID_DEVICE
        INVALID_CONTEXT INVALID_QUEUE_PROPERTIES INVALID_COMMAND_QUEUE
        INVALID_HOST_PTR INVALID_MEM_OBJECT INVALID_IMAGE_FORMAT_DESCRIPTOR
        INVALID_IMAGE_SIZE INVALID_SAMPLER INVALID_BINARY INVALID_BUILD_OPTIONS
        INVALID_PROGRAM INVALID_PROGRAM_EXECUTABLE INVALID_KERNEL_NAME
        INVALID_KERNEL_DEFINITION INVALID_KERNEL INVALID_ARG_INDEX
        INVALID_ARG_VALUE INVALID_ARG_SIZE INVALID_KERNEL_ARGS
        INVALID_WORK_DIMENSION INVALID_WORK_GROUP_SIZE INVALID_WORK_ITEM_SIZE
        INVALID_GLOBAL_OFFSET INVALID_EVENT_WAIT_LIST INVALID_EVENT
        INVALID_OPERATION INVALID_GL_OBJECT INVALID_BUFFER_SIZE
        INVALID_MIP_LEVEL INVALID_GLOBAL_WORK_SIZE INVALID_IMAGE_DESCRIPTOR
        INVALID_COMPILER_OPTIONS INVALID_LINKER_OPTIONS
        INVALID_DEVICE_PARTITION_COUNT INVALID_PIPE_SIZE INVALID_DEVICE_QUEUE
        INVALID_SPEC_ID MAX_SIZE_RESTRICTION_EXCEEDED
        PLATFORM_NOT_FOUND_KHR
        """,
)
platform_info = constant_class(
    "platform_info",
    "CL_PLATFORM_",
    """
        PROFILE VERSION NAME VENDOR EXTENSIONS HOST_TIMER_RESOLUTION
        NUMERIC_VERSION EXTENSIONS_WITH_VERSION
        """,
)
device_type = constant_class(
    "device_type",
    "CL_DEVICE_TYPE_",
    "DEFAULT CPU GPU ACCELERATOR CUSTOM ALL",
    bitfield=True,
)
device_info = constant_class(
    "device_info",
    "CL_DEVICE_",
    """
        TYPE VENDOR_ID MAX_COMPUTE_UNITS MAX_WORK_ITEM_DIMENSIONS
        MAX_WORK_GROUP_SIZE MAX_WORK_ITEM_SIZES PREFERRED_VECTOR_WIDTH_CHAR
        PREFERRED_VECTOR_WIDTH_SHORT PREFERRED_VECTOR_WIDTH_INT
        PREFERRED_VECTOR_WIDTH_LONG PREFERRED_VECTOR_WIDTH_FLOAT
        PREFERRED_VECTOR_WIDTH_DOUBLE MAX_CLOCK_FREQUENCY ADDRESS_BITS
        MAX_READ_IMAGE_ARGS MAX_WRITE_IMAGE_ARGS MAX_MEM_ALLOC_SIZE
        IMAGE2D_MAX_WIDTH IMAGE2D_MAX_HEIGHT IMAGE3D_MAX_WIDTH
        IMAGE3D_MAX_HEIGHT IMAGE3D_MAX_DEPTH IMAGE_SUPPORT MAX_PARAMETER_SIZE
        MAX_SAMPLERS MEM_BASE_ADDR_ALIGN MIN_DATA_TYPE_ALIGN_SIZE
        SINGLE_FP_CONFIG GLOBAL_MEM_CACHE_TYPE GLOBAL_MEM_CACHELINE_SIZE
        GLOBAL_MEM_CACHE_SIZE GLOBAL_MEM_SIZE MAX_CONSTANT_BUFFER_SIZE
        MAX_CONSTANT_ARGS LOCAL_MEM_TYPE LOCAL_MEM_SIZE ERROR_CORRECTION_SUPPORT
        PROFILING_TIMER_RESOLUTION ENDIAN_LITTLE AVAILABLE COMPILER_AVAILABLE
        EXECUTION_CAPABILITIES QUEUE_PROPERTIES QUEUE_ON_HOST_PROPERTIES NAME
        VENDOR DRIVER_VERSION=CL_DRIVER_VERSION PROFILE VERSION EXTENSIONS
        PLATFORM DOUBLE_FP_CONFIG HALF_FP_CONFIG PREFERRED_VECTOR_WIDTH_HALF
        HOST_UNIFIED_MEMORY NATIVE_VECTOR_WIDTH_CHAR NATIVE_VECTOR_WIDTH_SHORT
        NATIVE_VECTOR_WIDTH_INT NATIVE_VECTOR_WIDTH_LONG
        NATIVE_VECTOR_WIDTH_FLOAT NATIVE_VECTOR_WIDTH_DOUBLE
        NATIVE_VECTOR_WIDTH_HALF OPENCL_C_VERSION LINKER_AVAILABLE
        BUILT_IN_KERNELS IMAGE_MAX_BUFFER_SIZE IMAGE_MAX_ARRAY_SIZE
        PARENT_DEVICE PARTITION_MAX_SUB_DEVICES PARTITION_PROPERTIES
        PARTITION_AFFINITY_DOMAIN PARTITION_TYPE REFERENCE_COUNT
        PREFERRED_INTEROP_USER_SYNC PRINTF_BUFFER_SIZE IMAGE_PITCH_ALIGNMENT
        IMAGE_BASE_ADDRESS_ALIGNMENT MAX_READ_WRITE_IMAGE_ARGS
        MAX_GLOBAL_VARIABLE_SIZE QUEUE_ON_DEVICE_PROPERTIES
        QUEUE_ON_DEVICE_PREFERRED_SIZE QUEUE_ON_DEVICE_MAX_SIZE
        MAX_ON_DEVICE_QUEUES MAX_ON_DEVICE_EVENTS SVM_CAPABILITIES
        GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE MAX_PIPE_ARGS
        PIPE_MAX_ACTIVE_RESERVATIONS PIPE_MAX_PACKET_SIZE
        PREFERRED_PLATFORM_ATOMIC_ALIGNMENT PREFERRED_GLOBAL_ATOMIC_ALIGNMENT
        PREFERRED_LOCAL_ATOMIC_ALIGNMENT IL_VERSION MAX_NUM_SUB_GROUPS
        SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS NUMERIC_VERSION
        EXTENSIONS_WITH_VERSION ILS_WITH_VERSION BUILT_IN_KERNELS_WITH_VERSION
        ATOMIC_MEMORY_CAPABILITIES ATOMIC_FENCE_CAPABILITIES
        NON_UNIFORM_WORK_GROUP_SUPPORT OPENCL_C_ALL_VERSIONS
        PREFERRED_WORK_GROUP_SIZE_MULTIPLE WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT
        GENERIC_ADDRESS_SPACE_SUPPORT OPENCL_C_FEATURES
        DEVICE_ENQUEUE_CAPABILITIES PIPE_SUPPORT

        SPIR_VERSIONS
        COMPUTE_CAPABILITY_MAJOR_NV COMPUTE_CAPABILITY_MINOR_NV
        REGISTERS_PER_BLOCK_NV WARP_SIZE_NV GPU_OVERLAP_NV
        KERNEL_EXEC_TIMEOUT_NV INTEGRATED_MEMORY_NV
        ATTRIBUTE_ASYNC_ENGINE_COUNT_NV PCI_BUS_ID_NV PCI_SLOT_ID_NV
        PCI_DOMAIN_ID_NV
        MAX_ATOMIC_COUNTERS_EXT
        PREFERRED_WORK_GROUP_SIZE_AMD MAX_WORK_GROUP_SIZE_AMD
        PREFERRED_CONSTANT_BUFFER_SIZE_AMD PCIE_ID_AMD PROFILING_TIMER_OFFSET_AMD
        TOPOLOGY_AMD BOARD_NAME_AMD GLOBAL_FREE_MEMORY_AMD
        SIMD_PER_COMPUTE_UNIT_AMD SIMD_WIDTH_AMD SIMD_INSTRUCTION_WIDTH_AMD
        WAVEFRONT_WIDTH_AMD GLOBAL_MEM_CHANNELS_AMD GLOBAL_MEM_CHANNEL_BANKS_AMD
        GLOBAL_MEM_CHANNEL_BANK_WIDTH_AMD LOCAL_MEM_SIZE_PER_COMPUTE_UNIT_AMD
        LOCAL_MEM_BANKS_AMD THREAD_TRACE_SUPPORTED_AMD GFXIP_MAJOR_AMD
        GFXIP_MINOR_AMD AVAILABLE_ASYNC_QUEUES_AMD
        EXT_MEM_PADDING_IN_BYTES_QCOM PAGE_SIZE_QCOM
        ME_VERSION_INTEL SIMULTANEOUS_INTEROPS_INTEL
        NUM_SIMULTANEOUS_INTEROPS_INTEL
        """,
)
device_topology_type_amd = constant_class("device_topology_type_amd", "", "PCIE=CL_DEVICE_TOPOLOGY_TYPE_PCIE_AMD")
device_fp_config = constant_class(
    "device_fp_config",
    "CL_FP_",
    """
        DENORM INF_NAN ROUND_TO_NEAREST ROUND_TO_ZERO ROUND_TO_INF FMA
        SOFT_FLOAT CORRECTLY_ROUNDED_DIVIDE_SQRT
        """,
    bitfield=True,
)
device_mem_cache_type = constant_class("device_mem_cache_type", "CL_", "NONE READ_ONLY_CACHE READ_WRITE_CACHE")
device_local_mem_type = constant_class("device_local_mem_type", "CL_", "LOCAL GLOBAL")
device_exec_capabilities = constant_class("device_exec_capabilities", "CL_EXEC_", "KERNEL NATIVE_KERNEL", bitfield=True)
device_svm_capabilities = constant_class(
    "device_svm_capabilities",
    "CL_DEVICE_SVM_",
    "COARSE_GRAIN_BUFFER FINE_GRAIN_BUFFER FINE_GRAIN_SYSTEM ATOMICS",
    bitfield=True,
)
command_queue_properties = constant_class(
    "command_queue_properties",
    "CL_QUEUE_",
    "OUT_OF_ORDER_EXEC_MODE_ENABLE PROFILING_ENABLE ON_DEVICE ON_DEVICE_DEFAULT",
    bitfield=True,
)
context_info = constant_class(
    "context_info",
    "CL_CONTEXT_",
    "REFERENCE_COUNT DEVICES PROPERTIES NUM_DEVICES INTEROP_USER_SYNC",
)
# Empty in PyOpenCL builds without OpenGL, such as its Linux wheels.
gl_context_info = constant_class("gl_context_info", "CL_", "")
context_properties = constant_class("context_properties", "CL_CONTEXT_", "PLATFORM OFFLINE_DEVICES_AMD")
command_queue_info = constant_class(
    "command_queue_info",
    "CL_QUEUE_",
    "CONTEXT DEVICE REFERENCE_COUNT PROPERTIES PROPERTIES_ARRAY",
)
# Property names of clCreateCommandQueueWithProperties.
queue_properties = constant_class("queue_properties", "CL_QUEUE_", "PROPERTIES SIZE DEVICE_DEFAULT")
mem_flags = constant_class(
    "mem_flags",
    "CL_MEM_",
    """
        READ_WRITE WRITE_ONLY READ_ONLY USE_HOST_PTR ALLOC_HOST_PTR
        COPY_HOST_PTR HOST_WRITE_ONLY HOST_READ_ONLY HOST_NO_ACCESS
        KERNEL_READ_AND_WRITE USE_PERSISTENT_MEM_AMD
        """,
    bitfield=True,
)
svm_mem_flags = constant_class(
    "svm_mem_flags",
    "CL_MEM_",
    "READ_WRITE WRITE_ONLY READ_ONLY SVM_FINE_GRAIN_BUFFER SVM_ATOMICS",
    bitfield=True,
)
channel_order = constant_class(
    "channel_order",
    "CL_",
    """
        R A RG RA RGB RGBA BGRA INTENSITY LUMINANCE Rx RGx RGBx
        sRGB sRGBx sRGBA sBGRA ABGR
        """,
)
channel_type = constant_class(
    "channel_type",
    "CL_",
    """
        SNORM_INT8 SNORM_INT16 UNORM_INT8 UNORM_INT16 UNORM_SHORT_565
        UNORM_SHORT_555 UNORM_INT_101010 SIGNED_INT8 SIGNED_INT16 SIGNED_INT32
        UNSIGNED_INT8 UNSIGNED_INT16 UNSIGNED_INT32 HALF_FLOAT FLOAT
        UNORM_INT_101010_2
        """,
)
mem_object_type = constant_class(
    "mem_object_type",
    "CL_MEM_OBJECT_",
    """
        BUFFER IMAGE2D IMAGE3D IMAGE2D_ARRAY IMAGE1D IMAGE1D_ARRAY
        IMAGE1D_BUFFER PIPE
        """,
)
mem_info = constant_class(
    "mem_info",
    "CL_MEM_",
    """
        TYPE FLAGS SIZE HOST_PTR MAP_COUNT REFERENCE_COUNT CONTEXT
        ASSOCIATED_MEMOBJECT OFFSET USES_SVM_POINTER PROPERTIES
        """,
)
image_info = constant_class(
    "image_info",
    "CL_IMAGE_",
    """
        FORMAT ELEMENT_SIZE ROW_PITCH SLICE_PITCH WIDTH HEIGHT DEPTH
        ARRAY_SIZE BUFFER NUM_MIP_LEVELS NUM_SAMPLES
        """,
)
pipe_info = constant_class("pipe_info", "CL_PIPE_", "PACKET_SIZE MAX_PACKETS PROPERTIES")
pipe_properties = constant_class("pipe_properties", "CL_PIPE_", "PACKET_SIZE MAX_PACKETS")
addressing_mode = constant_class("addressing_mode", "CL_ADDRESS_", "NONE CLAMP_TO_EDGE CLAMP REPEAT MIRRORED_REPEAT")
filter_mode = constant_class("filter_mode", "CL_FILTER_", "NEAREST LINEAR")
sampler_info = constant_class(
    "sampler_info",
    "CL_SAMPLER_",
    """
        REFERENCE_COUNT CONTEXT NORMALIZED_COORDS ADDRESSING_MODE FILTER_MODE
        MIP_FILTER_MODE LOD_MIN LOD_MAX PROPERTIES
        MIP_FILTER_MODE_KHR LOD_MIN_KHR LOD_MAX_KHR
        """,
)
sampler_properties = constant_class(
    "sampler_properties", "CL_SAMPLER_", "NORMALIZED_COORDS ADDRESSING_MODE FILTER_MODE"
)
map_flags = constant_class("map_flags", "CL_MAP_", "READ WRITE WRITE_INVALIDATE_REGION", bitfield=True)
program_info = constant_class(
    "program_info",
    "CL_PROGRAM_",
    """
        REFERENCE_COUNT CONTEXT NUM_DEVICES DEVICES SOURCE BINARY_SIZES
        BINARIES NUM_KERNELS KERNEL_NAMES IL SCOPE_GLOBAL_CTORS_PRESENT
        SCOPE_GLOBAL_DTORS_PRESENT
        """,
)
program_build_info = constant_class(
    "program_build_info",
    "CL_PROGRAM_BUILD_",
    """
        STATUS OPTIONS LOG BINARY_TYPE=CL_PROGRAM_BINARY_TYPE
        GLOBAL_VARIABLE_TOTAL_SIZE
        """,
)
program_binary_type = constant_class(
    "program_binary_type",
    "CL_PROGRAM_BINARY_TYPE_",
    "NONE COMPILED_OBJECT LIBRARY EXECUTABLE",
)
kernel_info = constant_class(
    "kernel_info",
    "CL_KERNEL_",
    "FUNCTION_NAME NUM_ARGS REFERENCE_COUNT CONTEXT PROGRAM ATTRIBUTES",
)
kernel_arg_info = constant_class(
    "kernel_arg_info",
    "CL_KERNEL_ARG_",
    "ADDRESS_QUALIFIER ACCESS_QUALIFIER TYPE_NAME TYPE_QUALIFIER NAME",
)
kernel_arg_address_qualifier = constant_class(
    "kernel_arg_address_qualifier",
    "CL_KERNEL_ARG_ADDRESS_",
    "GLOBAL LOCAL CONSTANT PRIVATE",
)
kernel_arg_access_qualifier = constant_class(
    "kernel_arg_access_qualifier",
    "CL_KERNEL_ARG_ACCESS_",
    "READ_ONLY WRITE_ONLY READ_WRITE NONE",
)
kernel_arg_type_qualifier = constant_class(
    "kernel_arg_type_qualifier",
    "CL_KERNEL_ARG_TYPE_",
    "NONE CONST RESTRICT VOLATILE PIPE",
    bitfield=True,
)
kernel_work_group_info = constant_class(
    "kernel_work_group_info",
    "CL_KERNEL_",
    """
        WORK_GROUP_SIZE COMPILE_WORK_GROUP_SIZE LOCAL_MEM_SIZE
        PREFERRED_WORK_GROUP_SIZE_MULTIPLE PRIVATE_MEM_SIZE GLOBAL_WORK_SIZE
        """,
)
kernel_sub_group_info = constant_class(
    "kernel_sub_group_info",
    "CL_KERNEL_",
    """
        MAX_SUB_GROUP_SIZE_FOR_NDRANGE SUB_GROUP_COUNT_FOR_NDRANGE
        LOCAL_SIZE_FOR_SUB_GROUP_COUNT MAX_NUM_SUB_GROUPS COMPILE_NUM_SUB_GROUPS
        """,
)
event_info = constant_class(
    "event_info",
    "CL_EVENT_",
    "COMMAND_QUEUE COMMAND_TYPE REFERENCE_COUNT COMMAND_EXECUTION_STATUS CONTEXT",
)
command_type = constant_class(
    "command_type",
    "CL_COMMAND_",
    """
        NDRANGE_KERNEL TASK NATIVE_KERNEL READ_BUFFER WRITE_BUFFER COPY_BUFFER
        READ_IMAGE WRITE_IMAGE COPY_IMAGE COPY_IMAGE_TO_BUFFER
        COPY_BUFFER_TO_IMAGE MAP_BUFFER MAP_IMAGE UNMAP_MEM_OBJECT MARKER
        ACQUIRE_GL_OBJECTS RELEASE_GL_OBJECTS READ_BUFFER_RECT
        WRITE_BUFFER_RECT COPY_BUFFER_RECT USER BARRIER MIGRATE_MEM_OBJECTS
        FILL_BUFFER FILL_IMAGE SVM_FREE SVM_MEMCPY SVM_MEMFILL SVM_MAP
        SVM_UNMAP SVM_MIGRATE_MEM
        """,
)
command_execution_status = constant_class("command_execution_status", "CL_", "COMPLETE RUNNING SUBMITTED QUEUED")
profiling_info = constant_class("profiling_info", "CL_PROFILING_COMMAND_", "QUEUED SUBMIT START END COMPLETE")
mem_migration_flags = constant_class(
    "mem_migration_flags",
    "CL_MIGRATE_MEM_OBJECT_",
    "HOST CONTENT_UNDEFINED",
    bitfield=True,
)
device_partition_property = constant_class(
    "device_partition_property",
    "CL_DEVICE_PARTITION_",
    "EQUALLY BY_COUNTS BY_COUNTS_LIST_END BY_AFFINITY_DOMAIN",
)
device_affinity_domain = constant_class(
    "device_affinity_domain",
    "CL_DEVICE_AFFINITY_DOMAIN_",
    "NUMA L4_CACHE L3_CACHE L2_CACHE L1_CACHE NEXT_PARTITIONABLE",
    bitfield=True,
)
device_atomic_capabilities = constant_class(
    "device_atomic_capabilities",
    "CL_DEVICE_ATOMIC_",
    """
        ORDER_RELAXED ORDER_ACQ_REL ORDER_SEQ_CST SCOPE_WORK_ITEM
        SCOPE_WORK_GROUP SCOPE_DEVICE SCOPE_ALL_DEVICES
        """,
    bitfield=True,
)
device_device_enqueue_capabilities = constant_class(
    "device_device_enqueue_capabilities",
    "CL_DEVICE_QUEUE_",
    "SUPPORTED REPLACEABLE_DEFAULT",
    bitfield=True,
)
# Field widths and masks of cl_version (not bits to combine).
version_bits = constant_class(
    "version_bits",
    "CL_VERSION_",
    "MAJOR_BITS MINOR_BITS PATCH_BITS MAJOR_MASK MINOR_MASK PATCH_MASK",
)
khronos_vendor_id = constant_class("khronos_vendor_id", "CL_KHRONOS_VENDOR_ID_", "CODEPLAY")
# In PyOpenCL builds with OpenGL (and in its __all__ and type stub).
gl_object_type = constant_class("gl_object_type", "CL_GL_OBJECT_", "BUFFER TEXTURE2D TEXTURE3D RENDERBUFFER")
gl_texture_info = constant_class("gl_texture_info", "CL_GL_", "TEXTURE_TARGET MIPMAP_LEVEL")
# pycl additions: not in PyOpenCL 2026.1.4.
build_status = constant_class("build_status", "CL_BUILD_", "SUCCESS NONE ERROR IN_PROGRESS")
kernel_exec_info = constant_class("kernel_exec_info", "CL_KERNEL_EXEC_INFO_", "SVM_PTRS SVM_FINE_GRAIN_SYSTEM")


__all__ = [
    "addressing_mode",
    "build_status",
    "channel_order",
    "channel_type",
    "command_execution_status",
    "command_queue_info",
    "command_queue_properties",
    "command_type",
    "context_info",
    "context_properties",
    "device_affinity_domain",
    "device_atomic_capabilities",
    "device_device_enqueue_capabilities",
    "device_exec_capabilities",
    "device_fp_config",
    "device_info",
    "device_local_mem_type",
    "device_mem_cache_type",
    "device_partition_property",
    "device_svm_capabilities",
    "device_topology_type_amd",
    "device_type",
    "event_info",
    "filter_mode",
    "gl_context_info",
    "gl_object_type",
    "gl_texture_info",
    "image_info",
    "kernel_arg_access_qualifier",
    "kernel_arg_address_qualifier",
    "kernel_arg_info",
    "kernel_arg_type_qualifier",
    "kernel_exec_info",
    "kernel_info",
    "kernel_sub_group_info",
    "kernel_work_group_info",
    "khronos_vendor_id",
    "map_flags",
    "mem_flags",
    "mem_info",
    "mem_migration_flags",
    "mem_object_type",
    "pipe_info",
    "pipe_properties",
    "platform_info",
    "profiling_info",
    "program_binary_type",
    "program_build_info",
    "program_info",
    "queue_properties",
    "sampler_info",
    "sampler_properties",
    "status_code",
    "svm_mem_flags",
    "version_bits",
]
