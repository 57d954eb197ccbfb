// Stand-ins for the Darwin declarations the package's `#if canImport(Darwin)` branches use, with the shapes
// Apple's SDK headers give them, so .ci/apple-typecheck can type-check those branches on Linux. Everything
// else of the C library is the same on both (open, fsync, signal, getpid...) and comes from Glibc, which this
// module re-exports; a declaration here shadows Glibc's of the same name.
//
// Compiled with -D DARWIN_NONNULL_START_ROUTINES for the header flavour whose thread start routines and key
// destructors take a non-optional pointer; without it, the flavour where they take an optional one.
@_exported import Glibc

// MARK: Threads (<pthread/pthread.h>): pthread_t is a pointer, with no empty initialiser, and not Sendable.

public struct _opaque_pthread_t { private init() {} }
public typealias pthread_t = UnsafeMutablePointer<_opaque_pthread_t>
public typealias pthread_key_t = UInt
public struct _opaque_pthread_attr_t {
    public init() {}
}
public typealias pthread_attr_t = _opaque_pthread_attr_t
@discardableResult public func pthread_attr_init(_ attributes: UnsafeMutablePointer<pthread_attr_t>) -> Int32 { stub() }
@discardableResult public func pthread_attr_destroy(_ attributes: UnsafeMutablePointer<pthread_attr_t>) -> Int32 {
    stub()
}
#if DARWIN_NONNULL_START_ROUTINES
public typealias _DarwinStartRoutine = @convention(c) (UnsafeMutableRawPointer) -> UnsafeMutableRawPointer?
public typealias _DarwinKeyDestructor = @convention(c) (UnsafeMutableRawPointer) -> Void
#else
public typealias _DarwinStartRoutine = @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer?
public typealias _DarwinKeyDestructor = @convention(c) (UnsafeMutableRawPointer?) -> Void
#endif

@discardableResult public func pthread_create(
    _ thread: UnsafeMutablePointer<pthread_t?>!,
    _ attributes: UnsafePointer<pthread_attr_t>?,
    _ start: _DarwinStartRoutine,
    _ argument: UnsafeMutableRawPointer?
) -> Int32 { stub() }
@discardableResult public func pthread_detach(_ thread: pthread_t) -> Int32 { stub() }
@discardableResult public func pthread_join(
    _ thread: pthread_t,
    _ value: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
) -> Int32 {
    stub()
}
public func pthread_self() -> pthread_t { stub() }
public func pthread_equal(_ first: pthread_t?, _ second: pthread_t?) -> Int32 { stub() }
public func pthread_main_np() -> Int32 { stub() }
@discardableResult public func pthread_getname_np(
    _ thread: pthread_t,
    _ name: UnsafeMutablePointer<CChar>,
    _ length: Int
) -> Int32 { stub() }
/// Darwin names only the calling thread.
@discardableResult public func pthread_setname_np(_ name: UnsafePointer<CChar>) -> Int32 { stub() }
@discardableResult public func pthread_key_create(
    _ key: UnsafeMutablePointer<pthread_key_t>!,
    _ destructor: _DarwinKeyDestructor?
) -> Int32 {
    stub()
}
public func pthread_getspecific(_ key: pthread_key_t) -> UnsafeMutableRawPointer? { stub() }
@discardableResult public func pthread_setspecific(_ key: pthread_key_t, _ value: UnsafeRawPointer?) -> Int32 { stub() }

// MARK: Quality of service (<sys/qos.h>, <pthread/qos.h>)

public struct qos_class_t: RawRepresentable, Equatable, Sendable {
    public var rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
}
public let QOS_CLASS_USER_INTERACTIVE = qos_class_t(rawValue: 0x21)
public let QOS_CLASS_USER_INITIATED = qos_class_t(rawValue: 0x19)
public let QOS_CLASS_DEFAULT = qos_class_t(rawValue: 0x15)
public let QOS_CLASS_UTILITY = qos_class_t(rawValue: 0x11)
public let QOS_CLASS_BACKGROUND = qos_class_t(rawValue: 0x09)
public func qos_class_main() -> qos_class_t { stub() }
@discardableResult public func pthread_attr_set_qos_class_np(
    _ attributes: UnsafeMutablePointer<pthread_attr_t>,
    _ qosClass: qos_class_t,
    _ relativePriority: Int32
) -> Int32 { stub() }

// MARK: Resource limits (<sys/resource.h>): the resources are plain `Int32` macros, not Glibc's enum.

public var RLIMIT_FSIZE: Int32 { 1 }
@discardableResult public func setrlimit(_ resource: Int32, _ limit: UnsafePointer<rlimit>!) -> Int32 { stub() }

// MARK: Files (<sys/fcntl.h>): F_FULLFSYNC asks the drive to flush its own cache too.

public var F_FULLFSYNC: Int32 { 51 }

private func stub() -> Never { fatalError("a stand-in for type-checking only") }
