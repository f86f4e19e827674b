// The system-call layer (FileDescriptor, Errno, C paths) is SystemCalls', which the bars use
// too; the readers' users see it through ProcFS.
@_exported import SystemCalls
