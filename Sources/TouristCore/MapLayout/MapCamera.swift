import Foundation
import Geo
import Model
import WorldMap

/// The map's view and cursor in world units, with the moves the keys make.
/// The cursor's x is kept within 0…1 (it wraps); y within the Mercator square.
public struct MapCamera: Hashable, Sendable {
    public var centerX: Double
    public var centerY: Double
    public var zoom: Int
    public var cursorX: Double
    public var cursorY: Double

    public init(centerX: Double, centerY: Double, zoom: Int, cursorX: Double, cursorY: Double) {
        self.centerX = centerX
        self.centerY = centerY
        self.zoom = min(max(zoom, Viewport.minZoom), Viewport.maxZoom)
        self.cursorX = cursorX
        self.cursorY = cursorY
    }

    public init(_ view: MapViewState) {
        let c = Mercator.project(view.center)
        let k = Mercator.project(view.cursor)
        self.init(centerX: c.x, centerY: c.y, zoom: view.zoom, cursorX: k.x, cursorY: k.y)
    }

    /// The whole world, as large as fits the map area.
    public static func world(width: Int, height: Int) -> MapCamera {
        var zoom = Viewport.minZoom
        // Largest zoom at which the world is no wider than the map.
        while zoom < Viewport.maxZoom,
              Viewport.baseWorldDots * Double(1 << (zoom + 1)) <= Double(width * Viewport.dotsPerCellX) {
            zoom += 1
        }
        let y = Mercator.y(latitude: 20)
        return MapCamera(centerX: 0.5, centerY: y, zoom: zoom, cursorX: 0.5, cursorY: y)
    }

    /// The view of a first start (no view stored): one zoom closer than the whole world, where
    /// the larger countries are named, over Europe and Africa.
    public static func firstStart(width: Int, height: Int) -> MapCamera {
        var camera = world(width: width, height: height)
        camera.zoom = min(Viewport.maxZoom, max(2, camera.zoom + 1))
        let x = Mercator.x(longitude: 10), y = Mercator.y(latitude: 30)
        camera.centerX = x
        camera.centerY = y
        camera.cursorX = x
        camera.cursorY = y
        return camera
    }

    public var state: MapViewState {
        MapViewState(center: Mercator.unproject(x: centerX, y: centerY), zoom: zoom,
                     cursor: Mercator.unproject(x: cursorX, y: cursorY))
    }

    public var cursor: GeoPoint { Mercator.unproject(x: cursorX, y: cursorY) }

    public func viewport(width: Int, height: Int) -> Viewport {
        Viewport(centerX: centerX, centerY: centerY, zoom: zoom, width: width, height: height)
    }

    private var worldDots: Double { Viewport.baseWorldDots * Double(1 << zoom) }
    private var cellWidth: Double { Double(Viewport.dotsPerCellX) / worldDots }
    private var cellHeight: Double { Double(Viewport.dotsPerCellY) / worldDots }

    /// The cell the cursor is in.
    public func cursorCell(width: Int, height: Int) -> (col: Int, row: Int) {
        viewport(width: width, height: height).cell(x: cursorX, y: cursorY)
    }

    /// Moves the cursor by whole cells; the map scrolls so the cursor stays on screen.
    public mutating func moveCursor(dx: Int, dy: Int, width: Int, height: Int) {
        // Snap to the centre of the cursor's cell first so moves are whole cells.
        let cell = cursorCell(width: width, height: height)
        let target = (col: cell.col + dx, row: cell.row + dy)
        let vp = viewport(width: width, height: height)
        var pos = vp.worldPosition(col: target.col, row: target.row)
        pos.y = min(max(pos.y, cellHeight / 2), 1 - cellHeight / 2)
        cursorX = wrap(pos.x)
        cursorY = pos.y
        scrollToCursor(width: width, height: height)
    }

    /// Puts the cursor at a place, centring the map on it if it is off screen.
    public mutating func jump(to point: GeoPoint, width: Int, height: Int, recenter: Bool = false) {
        let p = Mercator.project(point)
        cursorX = wrap(p.x)
        cursorY = p.y
        let cell = cursorCell(width: width, height: height)
        if recenter || cell.col < 0 || cell.row < 0 || cell.col >= width || cell.row >= height {
            centerX = cursorX
            centerY = cursorY
            clampCenter(height: height)
        }
    }

    /// Pans by a number of cells (cursor keeps its place on screen).
    public mutating func pan(dx: Int, dy: Int, width: Int, height: Int) {
        let before = centerY
        centerX = wrap(centerX + Double(dx) * cellWidth)
        centerY += Double(dy) * cellHeight
        clampCenter(height: height)
        cursorX = wrap(cursorX + Double(dx) * cellWidth)
        cursorY = min(max(cursorY + (centerY - before), 0), 1)
    }

    /// Zooms by `steps`, keeping the cursor's place on the same cell of the screen.
    public mutating func zoom(by steps: Int, width: Int, height: Int) {
        let newZoom = min(max(zoom + steps, Viewport.minZoom), Viewport.maxZoom)
        guard newZoom != zoom else { return }
        var dx = cursorX - centerX
        dx -= (dx + 0.5).rounded(.down)
        let dy = cursorY - centerY
        let factor = pow(2, Double(zoom - newZoom))
        zoom = newZoom
        centerX = wrap(cursorX - dx * factor)
        centerY = cursorY - dy * factor
        clampCenter(height: height)
    }

    /// Keeps the cursor inside the map, scrolling one cell at a time.
    public mutating func scrollToCursor(width: Int, height: Int) {
        let cell = cursorCell(width: width, height: height)
        if cell.col < 0 { centerX = wrap(centerX + Double(cell.col) * cellWidth) }
        if cell.col >= width { centerX = wrap(centerX + Double(cell.col - width + 1) * cellWidth) }
        if cell.row < 0 { centerY += Double(cell.row) * cellHeight }
        if cell.row >= height { centerY += Double(cell.row - height + 1) * cellHeight }
        clampCenter(height: height)
    }

    /// Stops the map scrolling past the poles of the Mercator square (when the
    /// map is taller than the world, the world is centred).
    public mutating func clampCenter(height: Int) {
        let half = Double(height * Viewport.dotsPerCellY) / 2 / worldDots
        if half >= 0.5 {
            centerY = 0.5
        } else {
            centerY = min(max(centerY, half), 1 - half)
        }
    }

    private func wrap(_ x: Double) -> Double {
        let w = x - x.rounded(.down)
        return w >= 1 ? 0 : w
    }
}
