/// A new location as the user typed it. Every field is text so that the book can check it
/// and name the field that is wrong.
public struct LocationInput: Sendable, Equatable {
  public var name: String
  public var city: String
  public var latitude: String
  public var longitude: String
  public var description: String?
  public var link: String?
  public var images: [String]
  /// Kept from an import file; new locations get the current time.
  public var createdAt: String?
  public var updatedAt: String?

  public init(
    name: String, city: String, latitude: String, longitude: String, description: String? = nil,
    link: String? = nil, images: [String] = [], createdAt: String? = nil, updatedAt: String? = nil
  ) {
    (
      self.name, self.city, self.latitude, self.longitude, self.description, self.link, self.images,
      self.createdAt, self.updatedAt
    ) = (name, city, latitude, longitude, description, link, images, createdAt, updatedAt)
  }
}

/// The changes `edit` makes; nil leaves a field as it is. An empty description or link
/// removes it.
public struct LocationChanges: Sendable, Equatable {
  public var name: String?
  public var city: String?
  public var latitude: String?
  public var longitude: String?
  public var description: String?
  public var link: String?
  /// Remove every image before adding `addImages`.
  public var clearImages = false
  /// Image names appended in order.
  public var addImages: [String] = []

  public init() {}

  /// True when nothing would change.
  public var isEmpty: Bool {
    name == nil && city == nil && latitude == nil && longitude == nil && description == nil
      && link == nil && !clearImages && addImages.isEmpty
  }
}
