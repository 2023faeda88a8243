/* Vendor discovery: pycl is its own ICD loader (docs/design.md, "The shim as
 * ICD loader"). Vendors come, in this order and de-duplicated by the real path
 * of the loaded library, from OCL_ICD_FILENAMES, from OCL_ICD_VENDORS or else
 * /etc/OpenCL/vendors, and from the folders of pip-installed .icd files that
 * Python passes in. Every object a vendor returns starts with its dispatch
 * table, so after discovery the shim only needs to know each table's version. */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "dispatch.h"

#define MAX_VENDORS   32
#define MAX_PLATFORMS 64

struct vendor {
    void *handle;
    char real_path[PATH_MAX];
};

struct platform {
    cl_platform_id id;
    const struct pycl_icd_dispatch *table;
    unsigned version;      /* effective: capped by PYCL_FORCE_CL_VERSION */
    unsigned real_version; /* what the platform reports */
    char name[128];
};

typedef void *(*get_extension_fn)(const char *);
typedef cl_int (*icd_get_platforms_fn)(cl_uint, cl_platform_id *, cl_uint *);

static pthread_mutex_t loader_lock = PTHREAD_MUTEX_INITIALIZER;
static int loader_done;
static cl_int loader_status = CL_PLATFORM_NOT_FOUND_KHR;
static struct vendor vendors[MAX_VENDORS];
static unsigned vendor_count;
static struct platform platforms[MAX_PLATFORMS];
static unsigned platform_count; /* published with release order after discovery */
static char *report;
static size_t report_length, report_capacity;
static __thread char unavailable_reason[512];

static void note(const char *format, ...)
{
    va_list args;
    va_start(args, format);
    char line[PATH_MAX + 512];
    int n = vsnprintf(line, sizeof line, format, args);
    va_end(args);
    if (n < 0)
        return;
    if ((size_t)n >= sizeof line)
        n = sizeof line - 1;
    if (report_length + (size_t)n + 2 > report_capacity) {
        size_t capacity = (report_capacity + (size_t)n + 2) * 2;
        char *grown = realloc(report, capacity);
        if (!grown)
            return;
        report = grown;
        report_capacity = capacity;
    }
    memcpy(report + report_length, line, (size_t)n);
    report_length += (size_t)n;
    report[report_length++] = '\n';
    report[report_length] = '\0';
}

void pycl_set_unavailable(const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vsnprintf(unavailable_reason, sizeof unavailable_reason, format, args);
    va_end(args);
}

const char *pycl_unavailable_reason(void)
{
    return unavailable_reason;
}

static unsigned parse_version(const char *text, const char *prefix)
{
    unsigned major, minor;
    size_t n = strlen(prefix);
    if (strncmp(text, prefix, n) != 0 || sscanf(text + n, "%u.%u", &major, &minor) != 2)
        return 0;
    return PYCL_V(major, minor);
}

/* PYCL_FORCE_CL_VERSION=1.2 makes every platform and device look like OpenCL
 * 1.2, so the 1.2 paths (fallbacks, UnavailableError) run on any machine.
 * Read once, when discovery runs. */
static unsigned forced_version;

cl_uint pycl_forced_version(void)
{
    return forced_version;
}

static unsigned capped(unsigned version)
{
    return forced_version && forced_version < version ? forced_version : version;
}

static void add_platforms(void *handle, const char *path, const char *source)
{
    get_extension_fn get_extension = (get_extension_fn)dlsym(handle, "clGetExtensionFunctionAddress");
    icd_get_platforms_fn get_platforms = NULL;
    if (get_extension)
        get_platforms = (icd_get_platforms_fn)get_extension("clIcdGetPlatformIDsKHR");
    if (!get_platforms)
        get_platforms = (icd_get_platforms_fn)dlsym(handle, "clIcdGetPlatformIDsKHR");
    if (!get_platforms) {
        note("skipped %s (%s): not an OpenCL ICD (no clIcdGetPlatformIDsKHR)", path, source);
        return;
    }
    cl_uint count = 0;
    cl_int status = get_platforms(0, NULL, &count);
    if (status != CL_SUCCESS || count == 0) {
        const char *name = pycl_error_name(status);
        note("no platform from %s (%s): clIcdGetPlatformIDsKHR returned %s with %u platforms", path, source,
             name ? name : "an unknown status", count);
        return;
    }
    cl_platform_id ids[MAX_PLATFORMS];
    if (count > MAX_PLATFORMS)
        count = MAX_PLATFORMS;
    if (get_platforms(count, ids, NULL) != CL_SUCCESS) {
        note("no platform from %s (%s): clIcdGetPlatformIDsKHR failed on the second call", path, source);
        return;
    }
    for (cl_uint i = 0; i < count && platform_count < MAX_PLATFORMS; ++i) {
        struct platform *p = &platforms[platform_count];
        char version[256] = "";
        p->id = ids[i];
        p->table = ids[i] ? ((const struct pycl_icd_object *)ids[i])->dispatch : NULL;
        if (!p->table || !p->table->clGetPlatformInfo) {
            note("skipped a platform of %s: it has no dispatch table", path);
            continue;
        }
        p->name[0] = '\0';
        p->table->clGetPlatformInfo(ids[i], CL_PLATFORM_NAME, sizeof p->name - 1, p->name, NULL);
        p->table->clGetPlatformInfo(ids[i], CL_PLATFORM_VERSION, sizeof version - 1, version, NULL);
        p->real_version = parse_version(version, "OpenCL ");
        if (!p->real_version) {
            note("skipped platform '%s' of %s: unreadable version '%s'", p->name, path, version);
            continue;
        }
        p->version = capped(p->real_version);
        note("loaded %s (%s): platform '%s', %s", path, source, p->name, version);
        ++platform_count;
    }
}

static void load_library(const char *path, const char *source)
{
    void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        note("failed %s (%s): %s", path, source, dlerror());
        return;
    }
    void *symbol = dlsym(handle, "clGetExtensionFunctionAddress");
    if (!symbol) {
        note("skipped %s (%s): not an OpenCL ICD (no clGetExtensionFunctionAddress)", path, source);
        dlclose(handle);
        return;
    }
    char real_path[PATH_MAX];
    Dl_info info;
    if (!(dladdr(symbol, &info) && info.dli_fname && realpath(info.dli_fname, real_path)))
        snprintf(real_path, sizeof real_path, "%s", path);
    for (unsigned i = 0; i < vendor_count; ++i) {
        if (vendors[i].handle == handle || strcmp(vendors[i].real_path, real_path) == 0) {
            note("duplicate %s (%s): same library as %s", path, source, vendors[i].real_path);
            dlclose(handle); /* drops only the reference this call added */
            return;
        }
    }
    if (vendor_count == MAX_VENDORS) {
        note("skipped %s (%s): more than %d vendors", path, source, MAX_VENDORS);
        dlclose(handle);
        return;
    }
    vendors[vendor_count].handle = handle;
    snprintf(vendors[vendor_count].real_path, PATH_MAX, "%s", real_path);
    ++vendor_count;
    add_platforms(handle, real_path, source);
}

/* An .icd file holds one library name or path. A bare name from a pip folder
 * lies in that folder (the wheels ship the library beside the .icd file);
 * elsewhere it goes to the dynamic linker's search, as the Khronos loader does. */
static void load_icd_file(const char *file, const char *folder, int names_are_local)
{
    FILE *f = fopen(file, "r");
    if (!f) {
        note("failed %s: cannot read the file", file);
        return;
    }
    char line[PATH_MAX] = "";
    char *got = fgets(line, sizeof line, f);
    fclose(f);
    size_t n = got ? strlen(line) : 0;
    while (n && (line[n - 1] == '\n' || line[n - 1] == '\r' || line[n - 1] == ' ' || line[n - 1] == '\t'))
        line[--n] = '\0';
    if (!n) {
        note("failed %s: the file names no library", file);
        return;
    }
    char path[PATH_MAX];
    if (names_are_local && line[0] != '/')
        snprintf(path, sizeof path, "%s/%s", folder, line);
    else
        snprintf(path, sizeof path, "%s", line);
    load_library(path, file);
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every *.icd file of a folder, in name order so that platform order is the
 * same on every run. */
static void load_icd_folder(const char *folder, int names_are_local, const char *why)
{
    DIR *dir = opendir(folder);
    if (!dir) {
        note("searched %s (%s): no such folder", folder, why);
        return;
    }
    char *names[256];
    unsigned count = 0;
    struct dirent *entry;
    while ((entry = readdir(dir)) && count < 256) {
        size_t n = strlen(entry->d_name);
        if (n > 4 && strcmp(entry->d_name + n - 4, ".icd") == 0)
            names[count++] = strdup(entry->d_name);
    }
    closedir(dir);
    qsort(names, count, sizeof names[0], compare_names);
    note("searched %s (%s): %u .icd file%s", folder, why, count, count == 1 ? "" : "s");
    for (unsigned i = 0; i < count; ++i) {
        char file[PATH_MAX];
        snprintf(file, sizeof file, "%s/%s", folder, names[i]);
        load_icd_file(file, folder, names_are_local);
        free(names[i]);
    }
}

/* Calls `each` on every non-empty element of a colon-separated list. */
static void for_each_in_list(const char *list, void (*each)(const char *, void *), void *context)
{
    char *copy = strdup(list);
    if (!copy)
        return;
    char *saved = NULL;
    for (char *item = strtok_r(copy, ":", &saved); item; item = strtok_r(NULL, ":", &saved))
        each(item, context);
    free(copy);
}

static void load_named_library(const char *path, void *context)
{
    (void)context;
    load_library(path, "OCL_ICD_FILENAMES");
}

static void load_pip_folder(const char *folder, void *context)
{
    (void)context;
    load_icd_folder(folder, 1, "pip-installed vendors");
}

static void discover(const char *extra_icd_dirs)
{
    const char *forced = getenv("PYCL_FORCE_CL_VERSION");
    forced_version = forced ? parse_version(forced, "") : 0;
    if (forced && !forced_version)
        note("ignored PYCL_FORCE_CL_VERSION=%s: expected a version such as 1.2", forced);
    else if (forced)
        note("capping every platform and device at OpenCL %s (PYCL_FORCE_CL_VERSION)", forced);

    const char *names = getenv("OCL_ICD_FILENAMES");
    if (names && *names) {
        note("searched OCL_ICD_FILENAMES=%s", names);
        for_each_in_list(names, load_named_library, NULL);
    }
    const char *vendor_dir = getenv("OCL_ICD_VENDORS");
    struct stat st;
    if (vendor_dir && *vendor_dir) {
        size_t n = strlen(vendor_dir);
        if (stat(vendor_dir, &st) == 0 && S_ISDIR(st.st_mode))
            load_icd_folder(vendor_dir, 0, "OCL_ICD_VENDORS");
        else if (n > 4 && strcmp(vendor_dir + n - 4, ".icd") == 0)
            load_icd_file(vendor_dir, "", 0);
        else
            note("searched OCL_ICD_VENDORS=%s: neither a folder nor an .icd file", vendor_dir);
    } else {
        load_icd_folder("/etc/OpenCL/vendors", 0, "system vendors");
    }
    if (extra_icd_dirs && *extra_icd_dirs)
        for_each_in_list(extra_icd_dirs, load_pip_folder, NULL);
    if (!platform_count)
        note("no OpenCL platform found");
}

cl_int pycl_loader_init(const char *extra_icd_dirs)
{
    pthread_mutex_lock(&loader_lock);
    if (!loader_done) {
        discover(extra_icd_dirs);
        loader_status = platform_count ? CL_SUCCESS : CL_PLATFORM_NOT_FOUND_KHR;
        __atomic_store_n(&loader_done, 1, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&loader_lock);
    return loader_status;
}

const char *pycl_loader_report(void)
{
    return report ? report : "";
}

static unsigned published_platforms(void)
{
    return __atomic_load_n(&loader_done, __ATOMIC_ACQUIRE) ? platform_count : 0;
}

cl_int pycl_get_platforms(cl_uint num_entries, cl_platform_id *ids, cl_uint *num_platforms)
{
    if (!__atomic_load_n(&loader_done, __ATOMIC_ACQUIRE))
        return CL_PLATFORM_NOT_FOUND_KHR;
    if (num_platforms)
        *num_platforms = platform_count;
    if (ids)
        for (cl_uint i = 0; i < num_entries && i < platform_count; ++i)
            ids[i] = platforms[i].id;
    return loader_status;
}

static const struct platform *platform_of_table(const struct pycl_icd_dispatch *table)
{
    unsigned count = published_platforms();
    for (unsigned i = 0; i < count; ++i)
        if (platforms[i].table == table)
            return &platforms[i];
    return NULL;
}

const struct pycl_icd_dispatch *pycl_table_of(const void *object)
{
    return object ? ((const struct pycl_icd_object *)object)->dispatch : NULL;
}

unsigned pycl_table_version(const struct pycl_icd_dispatch *table)
{
    const struct platform *p = platform_of_table(table);
    return p ? p->version : 0;
}

unsigned pycl_table_real_version(const struct pycl_icd_dispatch *table)
{
    const struct platform *p = platform_of_table(table);
    return p ? p->real_version : 0;
}

cl_int pycl_dispatch_check(const void *object, unsigned need, const char *entry, const void *slot_value,
                           const struct pycl_icd_dispatch **table)
{
    *table = pycl_table_of(object);
    if (!*table)
        return CL_INVALID_VALUE;
    const struct platform *p = platform_of_table(*table);
    /* An object of a vendor this process's shim did not load (handed over by
     * from_int_ptr) has no known version: only the empty-slot check applies. */
    if (p && p->version < need) {
        pycl_set_unavailable("%s needs OpenCL %u.%u; platform '%s' reports OpenCL %u.%u%s", entry, need / 100,
                             need % 100, p->name, p->version / 100, p->version % 100,
                             p->version < p->real_version ? " (capped by PYCL_FORCE_CL_VERSION)" : "");
        return PYCL_UNAVAILABLE;
    }
    if (!slot_value) {
        pycl_set_unavailable("platform '%s' does not provide %s", p ? p->name : "(unknown)", entry);
        return PYCL_UNAVAILABLE;
    }
    return CL_SUCCESS;
}

cl_int pycl_platform_version(cl_platform_id platform, cl_uint *version)
{
    const struct platform *p = platform_of_table(pycl_table_of(platform));
    if (!p)
        return CL_INVALID_PLATFORM;
    *version = p->version;
    return CL_SUCCESS;
}

cl_int pycl_device_version(cl_device_id device, cl_uint *version)
{
    const struct pycl_icd_dispatch *table = pycl_table_of(device);
    if (!table || !table->clGetDeviceInfo)
        return CL_INVALID_DEVICE;
    char text[256] = "";
    cl_int status = table->clGetDeviceInfo(device, CL_DEVICE_VERSION, sizeof text - 1, text, NULL);
    if (status != CL_SUCCESS)
        return status;
    unsigned parsed = parse_version(text, "OpenCL ");
    if (!parsed)
        return CL_INVALID_DEVICE;
    *version = capped(parsed);
    return CL_SUCCESS;
}

cl_int pycl_get_extension_function(cl_platform_id platform, const char *name, void **function)
{
    const struct pycl_icd_dispatch *t = pycl_table_of(platform);
    cl_int status = pycl_dispatch_check(platform, PYCL_V(1, 2), "clGetExtensionFunctionAddressForPlatform",
                                        t ? (const void *)t->clGetExtensionFunctionAddressForPlatform : NULL, &t);
    if (status != CL_SUCCESS)
        return status;
    *function = t->clGetExtensionFunctionAddressForPlatform(platform, name);
    if (!*function) {
        const struct platform *p = platform_of_table(t);
        pycl_set_unavailable("platform '%s' does not provide %s", p ? p->name : "(unknown)", name);
        return PYCL_UNAVAILABLE;
    }
    return CL_SUCCESS;
}
