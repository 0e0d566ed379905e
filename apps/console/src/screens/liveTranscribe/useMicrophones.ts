import { useEffect, useRef, useState } from 'react';
import {
  type AudioDevice,
  isPermissionRefusal,
  listMicrophones,
  type MicrophonePermission,
  requestMicrophoneAccess,
  watchMicrophonePermission,
} from './audio/microphone';

export interface Microphones {
  devices: AudioDevice[];
  /** Spec §4: denied, prompt or granted; undefined until known (or where the browser cannot tell). */
  permission: MicrophonePermission | undefined;
  /** The browser refused the microphone: the check said denied, or a recording was refused. */
  markDenied: () => void;
}

/**
 * The microphones the page may use (spec §4): asks for the permission once so the devices show
 * their labels, lists audio inputs with a label and an id, and refreshes the list on device
 * changes and permission changes. `onDenied` runs when the permission is (or becomes) denied.
 */
export function useMicrophones(onDenied: () => void): Microphones {
  const [devices, setDevices] = useState<AudioDevice[]>([]);
  const [permission, setPermission] = useState<MicrophonePermission | undefined>();
  // The latest callback, read when the browser reports: a new function each render asks nothing again.
  const onDeniedRef = useRef(onDenied);
  useEffect(() => {
    onDeniedRef.current = onDenied;
  });

  useEffect(() => {
    const mediaDevices = typeof navigator === 'undefined' ? undefined : navigator.mediaDevices;
    if (!mediaDevices) return;
    let active = true;
    let stopWatching = () => undefined as void;

    const refresh = async () => {
      try {
        const found = await listMicrophones();
        if (active) setDevices(found);
      } catch (error) {
        console.warn('live transcription: could not list the microphones', error);
      }
    };
    const denied = () => {
      if (!active) return;
      setPermission('denied');
      onDeniedRef.current();
    };
    const onPermission = (state: MicrophonePermission) => {
      if (!active) return;
      if (state === 'denied') denied();
      else setPermission(state);
      void refresh();
    };

    void (async () => {
      const watched = await watchMicrophonePermission(onPermission);
      stopWatching = watched.stop;
      if (!active) return watched.stop();
      if (watched.permission === 'denied') return denied();
      if (watched.permission) setPermission(watched.permission);
      try {
        // Without a granted permission the devices have no label (spec §4 lists only labelled ones).
        if (watched.permission !== 'granted') await requestMicrophoneAccess();
        if (active && watched.permission === undefined) setPermission('granted');
      } catch (error) {
        if (isPermissionRefusal(error)) denied();
        else console.warn('live transcription: no microphone', error);
      }
      await refresh();
    })();

    const onDeviceChange = () => void refresh();
    mediaDevices.addEventListener('devicechange', onDeviceChange);
    return () => {
      active = false;
      stopWatching();
      mediaDevices.removeEventListener('devicechange', onDeviceChange);
    };
  }, []);

  return {
    devices,
    permission,
    markDenied: () => setPermission('denied'),
  };
}

/** Spec §4: the selected microphone, or the first device when it is not (or no longer) in the list. */
export function effectiveMicrophone(devices: readonly AudioDevice[], selected: string): string {
  return devices.some((device) => device.deviceId === selected) ? selected : (devices[0]?.deviceId ?? '');
}
