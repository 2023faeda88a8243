/* Vendor discovery, versions and status reporting (cl_shim/src/loader.c). */

/* Status of a call that the platform or device cannot serve (an entry point
 * beyond its OpenCL version, or a slot the vendor left empty);
 * pycl_unavailable_reason() says which and why. Outside the CL status range. */
#define PYCL_UNAVAILABLE -9999

/* Loads every vendor once (later calls return the first result).
 * extra_icd_dirs: colon-separated folders of pip-installed .icd files, searched
 * after OCL_ICD_FILENAMES and the vendors folder; may be NULL. Returns
 * CL_SUCCESS, or CL_PLATFORM_NOT_FOUND_KHR (-1001) when no platform loaded. */
cl_int pycl_loader_init(const char *extra_icd_dirs);
/* What was searched, loaded, skipped and why: one event per line. */
const char *pycl_loader_report(void);
cl_int pycl_get_platforms(cl_uint num_entries, cl_platform_id *platforms, cl_uint *num_platforms);
/* Versions as major * 100 + minor, after PYCL_FORCE_CL_VERSION caps them. */
cl_int pycl_platform_version(cl_platform_id platform, cl_uint *version);
cl_int pycl_device_version(cl_device_id device, cl_uint *version);
/* The PYCL_FORCE_CL_VERSION cap as major * 100 + minor; 0 when unset. */
cl_uint pycl_forced_version(void);
/* The thread's explanation of its last PYCL_UNAVAILABLE status. */
const char *pycl_unavailable_reason(void);
/* The header name of a status ("CL_INVALID_VALUE"); NULL for unknown codes. */
const char *pycl_error_name(cl_int status);
cl_int pycl_get_extension_function(cl_platform_id platform, const char *name, void **function);
